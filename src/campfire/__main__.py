from campfire.cli import main

main()

"""The games, one folder each, found through the `campfire.games` entry points."""

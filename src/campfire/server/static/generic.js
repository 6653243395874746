// A board for games that ship no page of their own: the view as text, the legal actions as buttons.
import { el } from "/static/common.js";
import { _ } from "/static/i18n.js";

export function createBoard({ stage, controls, ctx }) {
  const viewBox = el("pre", { class: "generic-view", "aria-label": _("The table as data") });
  stage.append(viewBox);
  let busy = false;

  function update(msg) {
    viewBox.textContent = JSON.stringify(msg.view, null, 1);
    const c = msg.controls;
    if (!c) {
      controls.replaceChildren(el("p", { class: "muted" }, msg.table.status === "playing" ? _("Waiting for the other players.") : ""));
      return;
    }
    const buttons = c.actions.map((action) => el("button", {
      type: "button",
      disabled: busy,
      onclick: async () => {
        busy = true;
        update(msg);
        try { await ctx.act(action); } catch (e) { ctx.toast(e.message); } finally { busy = false; }
      },
    }, Object.entries(action).map(([k, v]) => (k === "action" ? v : `${k}=${v}`)).join(" ")));
    controls.replaceChildren(el("div", { class: "generic-actions" }, buttons));
    if (c.more) controls.append(el("p", { class: "muted" }, _("More moves exist than are listed here.")));
  }

  function revealed(data) {
    viewBox.textContent = JSON.stringify(data.views, null, 1);
  }

  return { update, revealed };
}

// The account page: sign up, sign in (password or passkey), and the signed-in account's
// settings (passkeys, password, sign out here or everywhere, delete).
import { api, el } from "/static/common.js";
import { _, lang, ngettext } from "/static/i18n.js";

const day = (seconds) => new Date(seconds * 1000).toLocaleDateString(lang === "xx" ? "en" : lang);

const $ = (id) => document.getElementById(id);

async function show() {
  let me = null;
  try {
    const session = await api("/api/session");
    me = session.name ? session : null;
  } catch (error) {
    $("signin-error").textContent = error.message;
  }
  $("signed-out").hidden = !!me;
  $("signed-in").hidden = !me;
  if (!me) return;
  $("me-name").textContent = me.name;
  $("me-sessions").textContent = me.sessions === 1 ? _("Signed in on this device only.") : ngettext("Signed in on {n} device.", "Signed in on {n} devices.", me.sessions);
  $("passkeys").replaceChildren(...(me.passkeys.length ? me.passkeys.map((k, i) =>
    el("li", {},
      el("div", {}, el("strong", {}, _("Passkey {number}", { number: i + 1 })), " ", el("span", { class: "muted" }, k.used ? _("added {added}, last used {used}", { added: day(k.created), used: day(k.used) }) : _("added {added}", { added: day(k.created) }))),
      el("button", { type: "button", class: "small", onclick: () => removePasskey(k.id) }, _("Remove"))))
    : [el("li", { class: "empty" }, _("No passkey yet."))]));
}

function form(id, errorId, run) {
  $(id).addEventListener("submit", async (event) => {
    event.preventDefault();
    $(errorId).textContent = "";
    const button = $(id).querySelector("button[type=submit]");
    button.disabled = true;
    try {
      await run();
    } catch (error) {
      $(errorId).textContent = error.message;
    } finally {
      button.disabled = false;
    }
  });
}

form("signup-form", "signup-error", async () => {
  await api("/api/accounts", { method: "POST", body: { name: $("signup-name").value.trim(), password: $("signup-password").value } });
  $("signup-password").value = "";
  await show();
});

form("signin-form", "signin-error", async () => {
  await api("/api/session", { method: "POST", body: { name: $("signin-name").value.trim(), password: $("signin-password").value } });
  $("signin-password").value = "";
  await show();
});

form("password-form", "password-error", async () => {
  $("password-done").textContent = "";
  await api("/api/me/password", { method: "POST", body: { current: $("password-current").value, password: $("password-new").value } });
  $("password-current").value = "";
  $("password-new").value = "";
  $("password-done").textContent = _("Password changed; other devices are signed out.");
  await show();
});

form("delete-form", "delete-error", async () => {
  await api("/api/me", { method: "DELETE", body: { password: $("delete-password").value } });
  location.assign("/");
});

$("signout").addEventListener("click", async () => {
  await api("/api/session", { method: "DELETE" });
  await show();
});

$("signout-everywhere").addEventListener("click", async () => {
  await api("/api/sessions", { method: "DELETE" });
  await show();
});

function passkeysWork() {
  return window.PublicKeyCredential && PublicKeyCredential.parseCreationOptionsFromJSON;
}

$("passkey-add").addEventListener("click", async () => {
  $("passkey-error").textContent = "";
  if (!passkeysWork()) {
    $("passkey-error").textContent = _("This browser cannot make passkeys (it needs a recent browser and a secure page).");
    return;
  }
  try {
    const asked = await api("/api/passkeys/register/options", { method: "POST" });
    const made = await navigator.credentials.create({ publicKey: PublicKeyCredential.parseCreationOptionsFromJSON(asked.options) });
    await api("/api/passkeys/register", { method: "POST", body: { challenge: asked.challenge, credential: made.toJSON() } });
    await show();
  } catch (error) {
    $("passkey-error").textContent = error.name === "NotAllowedError" ? _("The passkey was not made (cancelled or timed out).") : error.message;
  }
});

async function removePasskey(id) {
  try {
    await api(`/api/passkeys/${encodeURIComponent(id)}`, { method: "DELETE" });
  } catch (error) {
    $("passkey-error").textContent = error.message;
  }
  await show();
}

$("passkey-signin").addEventListener("click", async () => {
  $("signin-error").textContent = "";
  if (!passkeysWork()) {
    $("signin-error").textContent = _("This browser cannot use passkeys (it needs a recent browser and a secure page).");
    return;
  }
  try {
    const asked = await api("/api/passkeys/signin/options", { method: "POST" });
    const got = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(asked.options) });
    await api("/api/passkeys/signin", { method: "POST", body: { challenge: asked.challenge, credential: got.toJSON() } });
    await show();
  } catch (error) {
    $("signin-error").textContent = error.name === "NotAllowedError" ? _("No passkey was used (cancelled or timed out).") : error.message;
  }
});

show();

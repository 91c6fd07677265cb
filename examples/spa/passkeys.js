// The account area's "Passkeys" section: "Add a passkey" (the browser's WebAuthn ceremony, run by
// client.passkeys.register(), with an optional name), and the account's passkeys, each with
// "Rename" (a field in its place) and "Remove". A passkey is a second factor too, so adding or
// removing one reloads GET /me (an organization that requires one may admit or keep out the user).
// Text from the server is only ever set as textContent.

/**
 * Wires the section; `render()` lists the passkeys.
 * @param {{
 *   client: ReturnType<typeof import("./client.js").createAuthClient>,
 *   $: (id: string) => HTMLElement,
 *   say: (error: { message: string } | null) => void,
 *   inform: (text: string | null) => void,
 *   refresh: () => Promise<boolean>,
 * }} app
 */
export function setupPasskeys({ client, $, say, inform, refresh }) {
  /** The id of the passkey whose name is being edited, or `null`. */
  let renaming = null;

  async function render() {
    const { data, error } = await client.passkeys.list();
    if (error) return say(error);
    $("no-passkeys").hidden = data.passkeys.length > 0;
    $("passkeys-list").replaceChildren(
      ...data.passkeys.map((passkey) =>
        passkey.id === renaming ? renameItem(passkey) : passkeyItem(passkey)
      ),
    );
  }

  function button(label, name, onClick) {
    const element = document.createElement("button");
    element.type = "button";
    element.textContent = label;
    element.setAttribute("aria-label", `${label} ${name}`);
    element.addEventListener("click", onClick);
    return element;
  }

  function passkeyItem(passkey) {
    const li = document.createElement("li");
    li.textContent = passkey.name;
    const detail = document.createElement("span");
    detail.className = "muted";
    const added = new Date(passkey.createdAt).toLocaleDateString();
    const used = passkey.lastUsedAt
      ? `last used ${new Date(passkey.lastUsedAt).toLocaleString()}`
      : "never used";
    detail.textContent = ` · added ${added} · ${used}${passkey.backedUp ? " · synced" : ""}`;
    li.append(
      detail,
      button("Rename", passkey.name, () => {
        renaming = passkey.id;
        render();
      }),
      button("Remove", passkey.name, async () => {
        inform(null);
        const { error } = await client.passkeys.remove(passkey.id);
        say(error);
        if (error) return;
        inform(`The passkey ${passkey.name} was removed.`);
        await refresh();
      }),
    );
    return li;
  }

  /** The item while its name is edited: a field with the name, "Save" and "Cancel". */
  function renameItem(passkey) {
    const li = document.createElement("li");
    const form = document.createElement("form");
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.name = "name";
    input.required = true;
    input.maxLength = 64;
    input.value = passkey.name;
    label.append("Rename to ", input);
    const save = document.createElement("button");
    save.type = "submit";
    save.textContent = "Save";
    const cancel = document.createElement("button");
    cancel.type = "button";
    cancel.textContent = "Cancel";
    cancel.addEventListener("click", () => {
      renaming = null;
      render();
    });
    form.append(label, save, cancel);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const { error } = await client.passkeys.rename(passkey.id, { name: input.value });
      say(error);
      if (error) return;
      renaming = null;
      await render();
    });
    li.append(form);
    queueMicrotask(() => input.focus());
    return li;
  }

  $("add-passkey-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.currentTarget);
    const name = String(new FormData(form).get("name") ?? "").trim();
    inform(null);
    const { data, error } = await client.passkeys.register(name ? { name } : {});
    say(error);
    if (error) return;
    form.reset();
    inform(`The passkey ${data.name} was added: sign in with it next time.`);
    await refresh();
  });

  return {
    render,
    reset() {
      renaming = null;
    },
  };
}

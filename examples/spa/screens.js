// Screens leave the page while hidden: a hidden form's fields are then in no one's way (a test
// or an assistive tool finding "Email" or "New password" by its label finds the one on screen).
// Elements are looked up by id from a registry filled at load, so code reaches them whether or
// not they are on the page; setting or removing `hidden` on a screen detaches or re-attaches it.

/** Every element with an id, as the page was loaded. */
const registry = new Map();
for (const element of document.querySelectorAll("[id]")) registry.set(element.id, element);

/** @param {string} id */
export function byId(id) {
  return /** @type {HTMLElement} */ (registry.get(id) ?? document.getElementById(id));
}

/** Detaches each `[data-screen]` element while it is hidden. */
export function detachHiddenScreens() {
  for (const screen of document.querySelectorAll("[data-screen]")) {
    const placeholder = document.createComment(` ${screen.id} `);
    screen.before(placeholder);
    const sync = () => {
      if (screen.hidden) screen.remove();
      else if (!screen.isConnected) placeholder.after(screen);
    };
    new MutationObserver(sync).observe(screen, { attributes: true, attributeFilter: ["hidden"] });
    sync();
  }
}

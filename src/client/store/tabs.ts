/**
 * The signal between the tabs of one browser: a `BroadcastChannel` that says "the signed-in
 * state changed" (never what it changed to: each tab reads `/me` again with its own cookie, so a
 * message cannot inject state). Where the runtime has no `BroadcastChannel`, nothing is shared.
 *
 * @module
 */

/** A channel to the other tabs: `post()` tells them, `close()` stops listening. */
export interface TabSignal {
  post(): void;
  close(): void;
}

/** Opens the channel `name`, calling `onMessage` when another tab posts on it. */
export function openTabSignal(name: string | false, onMessage: () => void): TabSignal {
  if (name === false || typeof BroadcastChannel === "undefined") {
    return { post() {}, close() {} };
  }
  const channel = new BroadcastChannel(name);
  channel.onmessage = () => onMessage();
  return {
    post: () => channel.postMessage("changed"),
    close: () => channel.close(),
  };
}

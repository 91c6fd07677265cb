// The account area's Telegram section: "Link Telegram" asks for a single-use t.me link
// (POST /telegram/link) and shows it; opening it in Telegram starts the bot with /start <token>,
// which links the account. GET /me's user.telegram says whether an account is linked. Text from the
// server is only ever set as textContent.

/** Wires the section; `render(me)` shows the state of the /me payload. */
export function setupTelegram({ client, $, say, start }) {
  function render(me) {
    const linked = me.user.telegram;
    $("telegram-status").textContent = linked
      ? `Linked to Telegram ${linked.username ? `@${linked.username}` : `user ${linked.id}`}.`
      : "No Telegram account is linked.";
    $("telegram-unlink").hidden = !linked;
    $("telegram-link-view").hidden = true;
  }

  $("telegram-link").addEventListener("click", async () => {
    say(null);
    const { data, error } = await client.telegram.link();
    if (error) {
      return say(
        error.status === 404
          ? {
            message: "This server has no Telegram bot (TELEGRAM_BOT_TOKEN, TELEGRAM_BOT_USERNAME).",
          }
          : error,
      );
    }
    const link = $("telegram-link-url");
    link.href = data.url;
    link.textContent = data.url;
    $("telegram-link-expires").textContent = new Date(data.expiresAt).toLocaleTimeString();
    $("telegram-link-view").hidden = false;
  });

  $("telegram-unlink").addEventListener("click", async () => {
    say(null);
    const { error } = await client.telegram.unlink();
    if (error) return say(error);
    await start();
  });

  return { render };
}

/**
 * The example SPA's "Link Telegram" button in headless Chromium, against `fragment-cli serve`
 * started like `deno task start` with a Telegram bot configured (a fake Bot API on 127.0.0.1):
 * sign up → Link Telegram shows the t.me link → the bot receives `/start <token>` (the test
 * delivers the update Telegram would) → the bot's confirmation reaches the fake Bot API → after a
 * reload the account area says the account is linked → Unlink Telegram.
 */
import { after, describe, it } from "node:test";
import assert from "node:assert/strict";
import process from "node:process";
import { NO_BROWSER } from "../helpers/browser.ts";
import { type FakeBotApi, fakeBotApi } from "../helpers/fake_bot_api.ts";
import { credentials, newPage, servedSpa, WAIT } from "../helpers/spa_pages.ts";

const slow = { timeout: 240_000, skip: NO_BROWSER };
const SECRET = "spa-telegram-webhook-secret-01";

describe("the example SPA's Link Telegram button in a real browser", () => {
  const spa = servedSpa();
  let api: FakeBotApi | undefined;
  after(async () => {
    await api?.close();
  });

  it(
    "shows the link; /start links the account; the page shows it; Unlink removes it",
    slow,
    async () => {
      api = await fakeBotApi();
      const { server, browser } = await spa({
        env: {
          TELEGRAM_BOT_TOKEN: "7000000006:AAH-spa_test_token_0123456789abcdef",
          TELEGRAM_BOT_USERNAME: "spa_test_bot",
          TELEGRAM_API_ORIGIN: api.url,
          WEBHOOK_SECRET: SECRET,
          WEBHOOK_SECRET_HEADER: "X-Telegram-Bot-Api-Secret-Token",
        },
      });
      const { context, page } = await newPage(browser);
      await page.goto(server.url);
      await credentials(page, "tg-spa@example.com", "correct horse battery", "Sign up");
      await page.getByText("No Telegram account is linked.").waitFor(WAIT);

      await page.getByRole("button", { name: "Link Telegram" }).click();
      const link = page.locator("#telegram-link-url");
      await link.waitFor({ state: "visible", ...WAIT });
      const url = await link.textContent();
      assert.match(url!, /^https:\/\/t\.me\/spa_test_bot\?start=[A-Za-z0-9_-]{43}$/);
      assert.equal(await link.getAttribute("href"), url);
      if (process.env.TELEGRAM_SPA_SCREENSHOT) {
        await page.locator("#account").screenshot({ path: process.env.TELEGRAM_SPA_SCREENSHOT });
      }

      const delivered = await fetch(`${server.url}/api/messenger/messenger/webhook`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-telegram-bot-api-secret-token": SECRET },
        body: JSON.stringify({
          update_id: 7001,
          message: {
            message_id: 1,
            from: { id: 31337, is_bot: false, first_name: "Ada", username: "ada_spa" },
            chat: { id: 31337, type: "private" },
            date: Math.floor(Date.now() / 1000),
            text: `/start ${new URL(url!).searchParams.get("start")}`,
          },
        }),
      });
      assert.equal(delivered.status, 200);
      const [reply] = await api.waitForDelivered(1, 60_000);
      assert.equal(
        reply.params.text,
        "Linked to tg-spa@example.com. You can sign in with Telegram now.",
      );

      await page.reload();
      await page.getByText("Linked to Telegram @ada_spa.").waitFor(WAIT);
      await page.getByRole("button", { name: "Unlink Telegram" }).click();
      await page.getByText("No Telegram account is linked.").waitFor(WAIT);
      assert.equal(await page.getByRole("button", { name: "Unlink Telegram" }).isVisible(), false);
      await context.close();
    },
  );
});

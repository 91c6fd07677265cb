/**
 * The example application: the first-party modules on one database, served by
 * `deno task start` (= `fragment-cli serve examples/app.ts --static examples/spa`, which also
 * serves the example single-page app of `examples/spa/` at `/`).
 *
 * The database comes from the environment: `DATABASE_URL` set → that PostgreSQL server (run
 * `fragment-cli db migrate examples/app.ts` first, or serve with `--migrate`); unset → the
 * embedded PGlite database in `./.data/pglite`, migrated automatically when `serve` starts. So
 * the same file serves a first-time user and a production-like set-up.
 *
 * `fragment-cli` finds every exported module instance, whatever the export's name. Add a module
 * by exporting its instance here; `deno task migrations` then regenerates `migrations/`.
 *
 * @module
 */
import process from "node:process";
import { auth, databaseFromEnv, messenger, type MessengerEvent, telegramOutbox } from "../mod.ts";
import {
  type AuthOAuthOptions,
  type AuthOAuthProvider,
  githubProvider,
  googleProvider,
  microsoftProvider,
  oidcProvider,
} from "../src/auth/mod.ts";

/** One database for every module; each keeps its tables in its own namespace. */
const database = databaseFromEnv();

/**
 * Users, credentials, sessions and the organizations API, at `/api/auth`. `PUBLIC_ORIGIN` (e.g.
 * `https://app.example.com`) is the origin users reach the deployment at: set it in production so
 * the origin check and `Secure` cookies follow it rather than the request's `Host`. `TRUST_PROXY`
 * names the header a reverse proxy writes the client's address into (e.g. `x-forwarded-for`), for
 * the per-address rate limits: set it only behind a proxy that overwrites that header.
 * `TRUSTED_ORIGINS` (comma-separated, e.g. `http://localhost:5173`) lists the other origins whose
 * pages may call the API with the user's cookie: a single-page app hosted apart from the API.
 * The sign-in providers come from the environment too (see {@link signInProviders}).
 */
export const authModule = auth({
  database,
  publicOrigin: process.env.PUBLIC_ORIGIN || undefined,
  trustedOrigins: commaList(process.env.TRUSTED_ORIGINS),
  trustProxy: process.env.TRUST_PROXY || false,
  telegram: telegramBot(),
  oauth: signInProviders(),
});

/**
 * "Continue with …" providers, each when its settings are set: any OpenID Connect provider from
 * `OIDC_ISSUER`, `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET` (and `OIDC_NAME`, the button's name; id
 * `oidc`), and Google, Microsoft (`MICROSOFT_TENANT`, default `common`) and GitHub from
 * `<NAME>_CLIENT_ID` and `<NAME>_CLIENT_SECRET`. Register
 * `<PUBLIC_ORIGIN>/api/auth/oauth/<id>/callback` as the redirect URL at each (docs/auth.md,
 * "Sign-in methods"); none set, the provider routes are absent.
 */
function signInProviders(): AuthOAuthOptions | undefined {
  const env = process.env;
  const providers: Record<string, AuthOAuthProvider> = {};
  if (env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET) {
    providers.oidc = oidcProvider({
      issuer: env.OIDC_ISSUER,
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      name: env.OIDC_NAME || undefined,
    });
  }
  if (env.GOOGLE_CLIENT_ID && env.GOOGLE_CLIENT_SECRET) {
    providers.google = googleProvider({
      clientId: env.GOOGLE_CLIENT_ID,
      clientSecret: env.GOOGLE_CLIENT_SECRET,
    });
  }
  if (env.MICROSOFT_CLIENT_ID && env.MICROSOFT_CLIENT_SECRET) {
    providers.microsoft = microsoftProvider({
      clientId: env.MICROSOFT_CLIENT_ID,
      clientSecret: env.MICROSOFT_CLIENT_SECRET,
      tenant: env.MICROSOFT_TENANT || undefined,
    });
  }
  if (env.GITHUB_CLIENT_ID && env.GITHUB_CLIENT_SECRET) {
    providers.github = githubProvider({
      clientId: env.GITHUB_CLIENT_ID,
      clientSecret: env.GITHUB_CLIENT_SECRET,
      // A GitHub Enterprise Server, or the tests' stand-in.
      webOrigin: env.GITHUB_WEB_ORIGIN || undefined,
      apiOrigin: env.GITHUB_API_ORIGIN || undefined,
    });
  }
  return Object.keys(providers).length > 0 ? { providers } : undefined;
}

/**
 * The Telegram bot, when `TELEGRAM_BOT_TOKEN` and `TELEGRAM_BOT_USERNAME` are set: users link
 * their account (`POST /api/auth/telegram/link`, then `/start <token>` in the bot) and sign in
 * from a Mini App (`POST /api/auth/telegram/sign-in`); unset, the Telegram routes are absent.
 */
function telegramBot(): { botToken: string; botUsername: string } | undefined {
  const botToken = process.env.TELEGRAM_BOT_TOKEN;
  const botUsername = process.env.TELEGRAM_BOT_USERNAME;
  return botToken && botUsername ? { botToken, botUsername } : undefined;
}

const bot = telegramBot();

/**
 * The bot's replies: Bot API calls as durable hooks, one chat's in order, within Telegram's rate
 * limits (docs/telegram.md, "Sending replies"). `TELEGRAM_API_ORIGIN` points it at another Bot
 * API server (default `https://api.telegram.org`; the tests use a fake one on 127.0.0.1). Absent
 * without the Telegram settings.
 */
export const outbox = bot
  ? telegramOutbox({
    database,
    botToken: bot.botToken,
    apiOrigin: process.env.TELEGRAM_API_ORIGIN || undefined,
  })
  : undefined;

/**
 * `/start <token>` from a Telegram user: completes the link the signed-in user asked for, and
 * answers in the chat through the outbox, once per update (`key`), however often the hook runs.
 */
async function onStart(event: MessengerEvent, token: string): Promise<void> {
  const message = event.message as {
    chat: { id: number };
    from?: { id: number; username?: string };
  };
  if (!outbox || !message.from) return;
  const result = await authModule.api.confirmTelegramLink(token, message.from);
  const text = result.ok
    ? `Linked to ${result.user.email}. You can sign in with Telegram now.`
    : result.reason === "LINK_TOKEN_EXPIRED"
    ? "This link expired: ask the app for a new one."
    : result.reason === "TELEGRAM_ACCOUNT_TAKEN"
    ? "This Telegram account is linked to another account: unlink it there first."
    : "This link is not valid: ask the app for a new one.";
  await outbox.send(null, "sendMessage", { chat_id: message.chat.id, text }, {
    key: `update:${event.updateId}:reply:1`,
  });
}

/** `"a, b"` → `["a", "b"]`; unset or blank → `[]`. */
function commaList(value: string | undefined): string[] {
  return (value ?? "").split(",").map((item) => item.trim()).filter((item) => item !== "");
}

/**
 * The messenger webhook secret: `WEBHOOK_SECRET` from the environment. When it is unset, a random
 * secret for this run is generated so `deno task start` works on a fresh machine; it is never
 * printed (a secret in a terminal or a log is a leaked secret), so the webhook refuses every
 * delivery until WEBHOOK_SECRET is set (docs/webhook.md).
 */
function webhookSecret(): string {
  const configured = process.env.WEBHOOK_SECRET;
  if (configured) return configured;
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  const generated = btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_");
  console.warn(
    "Warning: WEBHOOK_SECRET is not set; the messenger webhook uses a random secret generated " +
      "for this run, kept in memory only and not shown, so it refuses every delivery.\n" +
      "To receive updates, set WEBHOOK_SECRET (e.g. WEBHOOK_SECRET=$(openssl rand -hex 32)) and " +
      "give the messenger the same value (see docs/webhook.md).",
  );
  return generated;
}

/**
 * The messenger webhook at `/api/messenger/messenger/webhook`; updates are processed as hooks.
 * `WEBHOOK_SECRET_HEADER` names the header carrying the secret: set it to
 * `X-Telegram-Bot-Api-Secret-Token` to take Telegram's deliveries (docs/telegram.md). `serve`
 * prints the webhook URL for `setWebhook`, on `PUBLIC_ORIGIN` when set.
 */
export const messengerModule = messenger({
  database,
  webhookSecret: webhookSecret(),
  secretHeader: process.env.WEBHOOK_SECRET_HEADER || undefined,
  publicOrigin: process.env.PUBLIC_ORIGIN || undefined,
  // The update's id and kind only: message text is the users' data and stays out of the logs.
  onMessage: async (event) => {
    const start = /^\/start ([A-Za-z0-9_-]{1,64})$/.exec(String(event.message?.text ?? ""));
    if (start) await onStart(event, start[1]);
    console.log(`[messenger] update ${event.updateId} (${event.kind}) processed`);
  },
});

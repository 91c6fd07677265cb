import { auth, authSchema, scryptPasswordHasher } from "./src/auth/mod.ts";
import { migrate } from "./src/migrate/mod.ts";
import { pgliteAdapter } from "./src/sql/mod.ts";
const db = pgliteAdapter();
await migrate(db, authSchema);
const m = auth({ database: db, passwordHasher: scryptPasswordHasher({ params: { ln: 4 } }), autoStart: false, rateLimit: false, publicOrigin: "https://app.example.com", sendPasswordResetEmail: () => {} });
await m.api.createUser({ email: "known@example.com", password: "correct horse battery" });
const req = (email: string) => new Request("http://localhost/api/auth/password/forgot", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email }) });
const times: Record<string, number[]> = { known: [], unknown: [] };
for (let i = 0; i < 50; i++) { await (await m.fetch(req("known@example.com"))).text(); await (await m.fetch(req("nobody@example.com"))).text(); }
for (let i = 0; i < 400; i++) {
  for (const [k, e] of (i % 2 ? [["known", "known@example.com"], ["unknown", `n${i}@example.com`]] : [["unknown", `n${i}@example.com`], ["known", "known@example.com"]])) {
    const t = performance.now(); await (await m.fetch(req(e))).text(); times[k].push(performance.now() - t);
  }
}
const med = (a: number[]) => a.sort((x, y) => x - y)[a.length >> 1];
const p90 = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length * 0.9)];
console.log(JSON.stringify({ knownMedianMs: med(times.known).toFixed(3), unknownMedianMs: med(times.unknown).toFixed(3), knownP90: p90(times.known).toFixed(3), unknownP90: p90(times.unknown).toFixed(3) }));
await db.close();

/** `batchWhileBusy`: calls made while a group is in flight go together in the next one. */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { batchWhileBusy } from "../../src/db/batch_while_busy.ts";

describe("batchWhileBusy", () => {
  it("sends the first call alone and groups the calls made while it is in flight", async () => {
    const groups: number[][] = [];
    let release: () => void = () => {};
    const double = batchWhileBusy(async (keys: number[]) => {
      groups.push(keys);
      if (groups.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return keys.map((k) => k * 2);
    });
    const first = double(1);
    const rest = [double(2), double(3), double(4)];
    await Promise.resolve();
    assert.deepEqual(groups, [[1]]);
    release();
    assert.deepEqual(await Promise.all([first, ...rest]), [2, 4, 6, 8]);
    assert.deepEqual(groups, [[1], [2, 3, 4]]);
  });

  it("rejects every call of a failed group and keeps serving later calls", async () => {
    let fail = true;
    const call = batchWhileBusy((keys: string[]) => {
      if (fail) throw new Error("database down"); // thrown at once, not returned
      return Promise.resolve(keys.map((k) => k.toUpperCase()));
    });
    await assert.rejects(call("a"), /database down/);
    fail = false;
    assert.equal(await call("b"), "B");
  });
});

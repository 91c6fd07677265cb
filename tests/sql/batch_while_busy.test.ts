/**
 * `batchWhileBusy`: calls of one turn go together, and calls made while a group is in flight go
 * together in the next one.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { setImmediate } from "node:timers";
import { batchWhileBusy } from "../../src/sql/batch_while_busy.ts";

/** Resolves after the immediates scheduled so far (immediates run in order). */
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe("batchWhileBusy", () => {
  it("sends the calls of one turn together, once its microtasks have run", async () => {
    const groups: number[][] = [];
    const double = batchWhileBusy((keys: number[]) => {
      groups.push(keys);
      return Promise.resolve(keys.map((k) => k * 2));
    });
    const first = double(1);
    // A call made from a microtask of the same turn still joins the group.
    const late = Promise.resolve().then(() => double(2));
    assert.deepEqual(groups, [], "nothing is sent before the turn ends");
    assert.deepEqual(await Promise.all([first, late, double(3)]), [2, 4, 6]);
    assert.deepEqual(groups, [[1, 3, 2]]);
  });

  it("groups the calls made while a group is in flight", async () => {
    const groups: number[][] = [];
    let release: () => void = () => {};
    const double = batchWhileBusy(async (keys: number[]) => {
      groups.push(keys);
      if (groups.length === 1) await new Promise<void>((resolve) => (release = resolve));
      return keys.map((k) => k * 2);
    });
    const first = double(1);
    await nextTurn();
    assert.deepEqual(groups, [[1]]);
    const rest = [double(2), double(3), double(4)];
    await nextTurn();
    assert.deepEqual(groups, [[1]], "nothing more is sent while the first group is in flight");
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

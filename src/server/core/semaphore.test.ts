import { describe, expect, it } from "vitest";
import { Semaphore } from "./semaphore";

describe("Semaphore", () => {
  it("lets `size` holders in at once, the rest in order of asking, and refuses past maxWaiting", async () => {
    const s = new Semaphore(2, 1);
    expect(await s.acquire()).toBe(true);
    expect(await s.acquire()).toBe(true);
    const order: string[] = [];
    const third = s.acquire().then((ok) => order.push(`third ${ok}`));
    expect(await s.acquire()).toBe(false); // one is waiting already
    s.release();
    await third;
    expect(order).toEqual(["third true"]);
    s.release();
    s.release();
    expect(await s.run(async () => "done")).toBe("done");
  });
});

/**
 * What the bot knows of the exchange's dead man's switch. Each accepted heartbeat moves the
 * deadline to at least its send time plus its timeout (the exchange counts from when the
 * heartbeat reached it, later still). The exchange says nothing when its switch fires: it
 * cancels every open order, and the user feed reports each as cancelled like any other. An
 * order of ours reported cancelled once the deadline has passed is put down to the switch
 * (also one whose cancel we had sent or whose state was unknown: the switch may have come
 * first, and a cancel of ours is answered long before a whole timeout); the first such
 * cancel after an accepted heartbeat starts a lapse. Before the deadline, a cancel we did not
 * ask for is someone else's.
 */
export class HeartbeatWatch {
  #deadline: number | null = null;
  #inLapse = false;
  #lapses = 0;
  #cancels = 0;
  #lastLapseAt: number | null = null;
  /** When the current lapse was first seen: orders made since then were not there when the switch fired. */
  #lapseSince = Infinity;

  /** A heartbeat sent at `sentAt` with `timeoutMs` was accepted. */
  accepted(sentAt: number, timeoutMs: number): void {
    const deadline = sentAt + timeoutMs;
    if (this.#deadline === null || deadline > this.#deadline) this.#deadline = deadline;
    this.#inLapse = false;
    this.#lapseSince = Infinity;
  }

  /**
   * The exchange reported a live order of ours (made at `createdAt`) cancelled, seen at `now`.
   * `heartbeat`: that is the switch (the deadline of the last accepted heartbeat has passed,
   * and the order is older than the lapse); `newLapse`: this cancel opened a new lapse.
   */
  cancelled(now: number, createdAt: number): { readonly heartbeat: boolean; readonly newLapse: boolean } {
    if (this.#deadline === null || now < this.#deadline) return { heartbeat: false, newLapse: false };
    // The switch fires once, then stays disarmed until a heartbeat is accepted again: an order
    // made after the lapse was seen outlived it, and its cancel is ours (a re-quote).
    if (this.#inLapse && createdAt >= this.#lapseSince) return { heartbeat: false, newLapse: false };
    const newLapse = !this.#inLapse;
    if (newLapse) {
      this.#inLapse = true;
      this.#lapseSince = now;
      this.#lapses++;
      this.#lastLapseAt = now;
    }
    this.#cancels++;
    return { heartbeat: true, newLapse };
  }

  /** Lapses seen, orders the switch cancelled, when the last lapse was first seen (null: never). */
  get stats(): { readonly lapses: number; readonly cancels: number; readonly lastLapseAt: number | null } {
    return { lapses: this.#lapses, cancels: this.#cancels, lastLapseAt: this.#lastLapseAt };
  }
}

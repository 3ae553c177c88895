/**
 * What a wait cut short to plan again is told. Those waits only ask whether
 * they were cut, never why; `abort()` without a reason builds a DOMException,
 * stack and all, and a streamed reply wakes its waits many times a second.
 */
const WOKEN: Error = Object.freeze(new Error('woken to plan again'));

/** Cuts short whatever waits on `controller`'s signal, at no cost beyond the abort itself. */
export function wakeUp(controller: AbortController): void {
  controller.abort(WOKEN);
}

import { UnpackLimitError } from './zip-entries';

/**
 * In a reader's worker thread, makes `new Uint8Array(length)` refuse a length over `maxBytes`.
 * pdf.js inflates each stream of a PDF into one Uint8Array that doubles as it grows; that memory is
 * outside the JavaScript heap, so the worker's heap limit does not bound it, and a stream of a few
 * kilobytes can inflate to gigabytes. Arrays over an existing buffer allocate nothing and pass.
 * Answers whether the cap was hit, since a reader may catch the error and go on.
 */
export const capTypedArrays = (maxBytes: number): { exceeded: boolean } => {
  const state = { exceeded: false };
  globalThis.Uint8Array = new Proxy(Uint8Array, {
    construct(target, args, newTarget) {
      if (typeof args[0] === 'number' && args[0] > maxBytes) {
        state.exceeded = true;
        throw new UnpackLimitError();
      }
      return Reflect.construct(target, args, newTarget);
    },
  });
  return state;
};

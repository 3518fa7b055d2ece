/**
 * Keyboard lift on phones (spec section 9): while the input has focus in the full-screen window,
 * the on-screen keyboard's height is read from the visual viewport (counted from 50 px, 100 px on
 * Chrome Android) or, where that is missing, assumed (260 iOS, 320 Chrome Android, 300 otherwise),
 * and the window is lifted by it.
 */
import { VISITOR } from '@switchboard/core/widget/constants';

const agent = () => navigator.userAgent;
const isIos = () => /iPad|iPhone|iPod/.test(agent());
const isChromeAndroid = () => /Android/.test(agent()) && /Chrome/.test(agent());

export const keyboardHeight = (focused: boolean): number => {
  if (!focused) return 0;
  const viewport = window.visualViewport;
  if (!viewport) {
    const fallback = VISITOR.fallbackKeyboard;
    return isIos() ? fallback.ios : isChromeAndroid() ? fallback.chromeAndroid : fallback.other;
  }
  const hidden = window.innerHeight - viewport.height - viewport.offsetTop;
  const threshold = isChromeAndroid() ? VISITOR.keyboardThresholdChromeAndroid : VISITOR.keyboardThreshold;
  return hidden > threshold ? hidden : 0;
};

/** Lifts `root` while the keyboard is up (mobile full screen only). */
export const watchKeyboard = (root: HTMLElement, isMobile: () => boolean) => {
  let focused = false;
  const apply = () => {
    root.style.paddingBottom = isMobile() ? `${keyboardHeight(focused)}px` : '';
  };
  root.addEventListener('focusin', (event) => {
    focused = (event.target as HTMLElement).tagName === 'TEXTAREA';
    apply();
  });
  root.addEventListener('focusout', () => {
    focused = false;
    apply();
  });
  window.visualViewport?.addEventListener('resize', apply);
};

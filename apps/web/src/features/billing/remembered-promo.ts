/**
 * A promo code remembered from a link (`/?promo=CODE`, kept under `checkout:promoCode` through
 * sign-up) and how a checkout carries it.
 */

/** The promotion a page chose itself (promotional mode, an automatic coupon). */
export interface PromoChoice {
  couponId?: string | null;
  promoCode?: string | null;
}

/**
 * The promotion fields of a checkout: a code or coupon the page chose is sent as such (the server
 * refuses one that does not apply); a code remembered from a link is sent as `rememberedPromoCode`,
 * which the server applies only where it applies, so it never blocks a credit pack or another plan.
 */
export const promoFields = (
  options: PromoChoice,
  remembered: string | null,
): { couponId?: string; promoCode?: string; rememberedPromoCode?: string } => {
  if (options.couponId || options.promoCode) {
    return { couponId: options.couponId ?? undefined, promoCode: options.promoCode ?? undefined };
  }
  return remembered ? { rememberedPromoCode: remembered } : {};
};

/** The remembered code is used up only by a checkout that carries it; otherwise it stays for its plan. */
export const forgetsRememberedPromo = (
  options: PromoChoice,
  answer: { promoCodeApplied?: boolean },
  remembered: string | null,
): boolean => {
  if (answer.promoCodeApplied !== true || !remembered) return false;
  if (!options.couponId && !options.promoCode) return true;
  return options.promoCode?.trim().toUpperCase() === remembered.trim().toUpperCase();
};

import { clamp } from '@switchboard/core';

/** Loads an image URL; resolves its aspect ratio, rejects when it is not an image. */
export const loadImageRatio = (url: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image.naturalHeight ? image.naturalWidth / image.naturalHeight : 1);
    image.onerror = () => reject(new Error('not an image'));
    image.src = url;
  });

/**
 * Auto-fit suggestions for a logo of the given aspect ratio (spec section 5): a header width
 * clamped 60-150 px, a widget-header scale clamped 1-2 and an avatar scale clamped 0.5-1.5.
 * A failed load uses ratio 1 and width 100.
 */
export const suggestLogoFit = (ratio: number | null) => {
  if (ratio === null) return { ratio: 1, logoWidth: 100, widgetLogoScale: 1, avatarLogoScale: 1 };
  const round = (value: number) => Math.round(value * 10) / 10;
  return {
    ratio,
    logoWidth: Math.round(clamp(36 * ratio, 60, 150)),
    // Wide logos fill the 300x120 header box at scale 1; square ones can be drawn larger.
    widgetLogoScale: round(clamp(2.5 / ratio, 1, 2)),
    // A wide logo shrinks to fit the round avatar; a tall one is enlarged a little.
    avatarLogoScale: round(clamp(1 / Math.sqrt(ratio), 0.5, 1.5)),
  };
};

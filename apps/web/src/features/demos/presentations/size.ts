import {
  DEMO_DEFAULT_HEIGHT,
  DEMO_DEFAULT_WIDTH,
  DEMO_PHONE_HEIGHT,
  DEMO_PHONE_WIDTH,
  type TDemoSettings,
} from '@switchboard/core';
import { useEffect, useState } from 'react';
import type { DemoMode } from './parts';

const toPixels = (value: number | string, fallback: number) => {
  const parsed = typeof value === 'number' ? value : Number.parseInt(String(value).replace(/px$/, ''), 10);
  return Number.isFinite(parsed) && parsed > 0 ? parsed : fallback;
};

const readHeight = () => window.innerHeight;

export const useViewportHeight = () => {
  const [height, setHeight] = useState(readHeight);
  useEffect(() => {
    const onResize = () => setHeight(readHeight());
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return height;
};

export const useViewportWidth = () => {
  const [width, setWidth] = useState(() => window.innerWidth);
  useEffect(() => {
    const onResize = () => setWidth(window.innerWidth);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return width;
};

/**
 * The demo widget size (section 5): on screens up to 640px wide and not shared or embedded,
 * 340 (at most the screen width minus 40) by 360; non-responsive embeds use their own size;
 * otherwise 420 by 600. On a phone the panel never outgrows the screen (width minus 40, height
 * minus the launcher's corner offsets), so its input is always in view.
 */
export const demoWidgetSize = (settings: TDemoSettings, mode: DemoMode, screenWidth: number, screenHeight = 0) => {
  const size = baseSize(settings, mode, screenWidth);
  if (screenWidth > 640 || screenHeight <= 0) return size;
  return {
    width: Math.max(200, Math.min(size.width, screenWidth - 40)),
    height: Math.max(240, Math.min(size.height, screenHeight - 40)),
  };
};

const baseSize = (settings: TDemoSettings, mode: DemoMode, screenWidth: number) => {
  if (screenWidth <= 640 && mode !== 'shared' && mode !== 'embedded') {
    return { width: Math.min(DEMO_PHONE_WIDTH, screenWidth - 40), height: DEMO_PHONE_HEIGHT };
  }
  if (!settings.embedSettings.responsive) {
    return {
      width: toPixels(settings.embedSettings.width, DEMO_DEFAULT_WIDTH),
      height: toPixels(settings.embedSettings.height, DEMO_DEFAULT_HEIGHT),
    };
  }
  return { width: DEMO_DEFAULT_WIDTH, height: DEMO_DEFAULT_HEIGHT };
};

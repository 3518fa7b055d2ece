import { defaultDemoSettings } from '@switchboard/core';
import { describe, expect, it } from 'vitest';
import { demoWidgetSize } from './size';

describe('demo widget size (section 5)', () => {
  const settings = defaultDemoSettings();
  it('is 420 by 600 by default', () => {
    expect(demoWidgetSize(settings, 'preview-page', 1280)).toEqual({ width: 420, height: 600 });
  });
  it('is 340 (at most the screen minus 40) by 360 on small screens unless shared or embedded', () => {
    expect(demoWidgetSize(settings, 'preview-page', 640)).toEqual({ width: 340, height: 360 });
    expect(demoWidgetSize(settings, 'editor', 360)).toEqual({ width: 320, height: 360 });
    expect(demoWidgetSize(settings, 'shared', 390)).toEqual({ width: 420, height: 600 });
    expect(demoWidgetSize(settings, 'embedded', 390)).toEqual({ width: 420, height: 600 });
  });
  it('never outgrows a phone screen once its height is known', () => {
    expect(demoWidgetSize(settings, 'shared', 390, 844)).toEqual({ width: 350, height: 600 });
    expect(demoWidgetSize(settings, 'shared', 390, 560)).toEqual({ width: 350, height: 520 });
    expect(demoWidgetSize(settings, 'shared', 1280, 560)).toEqual({ width: 420, height: 600 });
  });
  it('uses the embed size when not responsive', () => {
    const fixed = { ...settings, embedSettings: { responsive: false, width: '500px', height: 640 } };
    expect(demoWidgetSize(fixed, 'shared', 1280)).toEqual({ width: 500, height: 640 });
  });
});

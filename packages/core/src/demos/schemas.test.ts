import { describe, expect, it } from 'vitest';
import { defaultDemoSettings, ZCreateDemoRequest, ZDemoChatRequest, ZDemoSettings } from './schemas';

describe('demo settings', () => {
  it('fills every section 3 default from an empty object', () => {
    const settings = defaultDemoSettings();
    expect(settings.chatBubble).toEqual({ enabled: true, message: 'Hi there! Need any help?', delaySeconds: 2 });
    expect(settings.logoCropPosition).toEqual({ x: 50, y: 50 });
    expect(settings.logoWidth).toBe(100);
    expect(settings.platformSettings).toMatchObject({ headerHeight: 60, headerPadding: 16, showShareButton: true });
    expect(settings.platformSettings.autoOpen).toBeUndefined();
    expect(settings.backgroundSettings).toMatchObject({
      backgroundColor: '#1a1d23',
      titleSize: 24,
      showRequestCounter: false,
      counterPosition: 'bottom-right',
    });
    expect(settings.embedSettings).toEqual({ responsive: true, width: 420, height: 600 });
  });

  it('accepts embed sizes as a plain number or a number followed by px only', () => {
    expect(ZDemoSettings.safeParse({ embedSettings: { width: '500px', height: 640 } }).success).toBe(true);
    expect(ZDemoSettings.safeParse({ embedSettings: { width: '50%' } }).success).toBe(false);
    expect(ZDemoSettings.safeParse({ embedSettings: { height: '12em' } }).success).toBe(false);
  });

  it('refuses non-web addresses and bad colours, naming the field', () => {
    const bad = ZDemoSettings.safeParse({ backgroundUrl: 'javascript:alert(1)', themeColor: 'teal' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['backgroundUrl', 'themeColor']);
  });

  it('needs a known type, an agent and a positive limit to create a demo', () => {
    expect(ZCreateDemoRequest.safeParse({ name: 'x', type: 'sms', buildId: 'agt_1' }).data?.requestLimit).toBe(100);
    expect(ZCreateDemoRequest.safeParse({ name: 'x', type: 'fax', buildId: 'agt_1' }).success).toBe(false);
    expect(ZCreateDemoRequest.safeParse({ name: 'x', type: 'sms', buildId: '' }).success).toBe(false);
    expect(ZCreateDemoRequest.safeParse({ name: 'x', type: 'sms', buildId: 'a', requestLimit: 0 }).success).toBe(false);
  });

  it('refuses an empty chat message', () => {
    expect(ZDemoChatRequest.safeParse({ demoId: 'dmo_1', message: '   ' }).success).toBe(false);
  });
});

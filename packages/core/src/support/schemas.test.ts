import { describe, expect, it } from 'vitest';
import { privacyEmbedUrl } from './schemas';

describe('privacy-friendly video players', () => {
  it('turns YouTube and Vimeo links into their privacy-friendly players', () => {
    expect(privacyEmbedUrl('https://www.youtube.com/watch?v=dQw4w9WgXcQ')).toBe(
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    );
    expect(privacyEmbedUrl('https://youtu.be/dQw4w9WgXcQ')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(privacyEmbedUrl('https://vimeo.com/76979871')).toBe('https://player.vimeo.com/video/76979871?dnt=1');
    expect(privacyEmbedUrl('https://videos.example.com/guide.mp4')).toBe('https://videos.example.com/guide.mp4');
  });

  it('refuses what is not https or not a video id', () => {
    expect(privacyEmbedUrl('http://youtube.com/watch?v=dQw4w9WgXcQ')).toBeNull();
    expect(privacyEmbedUrl('javascript:alert(1)')).toBeNull();
    expect(privacyEmbedUrl('https://youtube.com/watch?v=<script>')).toBeNull();
    expect(privacyEmbedUrl('not a url')).toBeNull();
  });
});

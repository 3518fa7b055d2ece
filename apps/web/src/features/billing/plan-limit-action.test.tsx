import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PlanLimitAction } from './plan-limit-action';

const render = (code: string | null) =>
  renderToStaticMarkup(
    <MemoryRouter>
      <PlanLimitAction code={code} />
    </MemoryRouter>,
  );

describe('a plan limit offers the upgrade', () => {
  it('links a plan limit to the plans', () => {
    const html = render('BILLING_ACTIVE_SUBSCRIPTION_REQUIRED');
    expect(html).toContain('href="/pricing"');
    expect(html).toContain('View Plans');
  });

  it('offers nothing for other errors', () => {
    expect(render('AI_TIMEOUT')).toBe('');
    expect(render(null)).toBe('');
  });
});

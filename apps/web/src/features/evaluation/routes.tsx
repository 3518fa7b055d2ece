import type { FeatureRoutes } from '../routing';
import { BulkTesterPage } from './bulk-tester-page';
import { ComparePage } from './compare-page';
import { ConfigurePage } from './configure-page';
import { OptimizePage } from './optimize-page';
import { ResultsPage } from './results-page';
import { RunningPage } from './running-page';
import { TestSettingsPage } from './test-settings-page';

export const evaluationRoutes: FeatureRoutes = {
  workspace: [
    { path: '/dashboard', element: <BulkTesterPage /> },
    { path: '/new-evaluation', element: <BulkTesterPage /> },
    { path: '/new-evaluation/openai-chatcompletion', element: <ConfigurePage type="chatcompletion" /> },
    {
      path: '/new-evaluation/openai-chatcompletion/test-settings',
      element: <TestSettingsPage type="chatcompletion" />,
    },
    { path: '/new-evaluation/openai-assistants', element: <ConfigurePage type="openai-assistants" /> },
    {
      path: '/new-evaluation/openai-assistants/test-settings',
      element: <TestSettingsPage type="openai-assistants" />,
    },
    { path: '/new-evaluation/running', element: <RunningPage /> },
    { path: '/new-evaluation/results/:runId', element: <ResultsPage /> },
    { path: '/new-evaluation/compare', element: <ComparePage /> },
    { path: '/optimize', element: <OptimizePage /> },
  ],
};

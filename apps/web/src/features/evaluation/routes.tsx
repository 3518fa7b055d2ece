import { type FeatureRoutes, lazyPage } from '../routing';

const BulkTesterPage = lazyPage(() => import('./bulk-tester-page'), 'BulkTesterPage');
const ComparePage = lazyPage(() => import('./compare-page'), 'ComparePage');
const ConfigurePage = lazyPage(() => import('./configure-page'), 'ConfigurePage');
const OwaspPage = lazyPage(() => import('./owasp-page'), 'OwaspPage');
const OptimizePage = lazyPage(() => import('./optimize-page'), 'OptimizePage');
const ResultsPage = lazyPage(() => import('./results-page'), 'ResultsPage');
const RunningPage = lazyPage(() => import('./running-page'), 'RunningPage');
const TestSettingsPage = lazyPage(() => import('./test-settings-page'), 'TestSettingsPage');

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
    { path: '/new-evaluation/results/:runId/owasp', element: <OwaspPage /> },
    { path: '/new-evaluation/compare', element: <ComparePage /> },
    { path: '/optimize', element: <OptimizePage /> },
  ],
};

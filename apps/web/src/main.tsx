import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Toaster } from 'sonner';
import { router } from './app/router';
import { SessionProvider } from './features/session/session';
import { ApiError } from './lib/api';
import './index.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      refetchOnWindowFocus: false,
      retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
    },
  },
});

const root = document.getElementById('root');
if (!root) throw new Error('#root is missing');

createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <SessionProvider>
        <RouterProvider router={router} />
        <Toaster
          visibleToasts={1}
          position="bottom-right"
          closeButton
          toastOptions={{
            unstyled: false,
            classNames: {
              toast: '!border-border !bg-surface !text-foreground',
              title: '!text-foreground',
              description: '!text-muted',
              closeButton: '!border-border !bg-surface !text-foreground',
            },
          }}
        />
      </SessionProvider>
    </QueryClientProvider>
  </StrictMode>,
);

import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { isUnauthenticated } from './api/client';
import { queryKeys } from './api/queries';
import { App } from './app';
import './styles.css';

// A 401 anywhere (key revoked while the tab is open) re-checks the key, which shows the key prompt.
const onError = (err: unknown) => {
  if (isUnauthenticated(err)) void queryClient.invalidateQueries({ queryKey: queryKeys.me });
};
const queryClient: QueryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (err, query) => query.queryKey[0] !== queryKeys.me[0] && onError(err) }),
  mutationCache: new MutationCache({ onError }),
  defaultOptions: { queries: { staleTime: 10_000, refetchOnWindowFocus: false, retry: (n, err) => !isUnauthenticated(err) && n < 2 } },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <App />
    </QueryClientProvider>
  </StrictMode>,
);

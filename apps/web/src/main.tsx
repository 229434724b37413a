import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

interface Health {
  status: string;
  version: string;
  dependencies: Record<string, { status: string; detail?: string }>;
}

function App() {
  const [health, setHealth] = useState<Health | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    fetch('/health')
      .then((r) => r.json() as Promise<Health>)
      .then(setHealth)
      .catch((e: Error) => setError(e.message));
  }, []);
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 720, margin: '3rem auto', padding: '0 1rem' }}>
      <h1>Sextant</h1>
      <p>Code-and-history search for your team and its AI agents.</p>
      {error && <p role="alert">Cannot reach the API: {error}</p>}
      {health && (
        <section aria-label="Service health">
          <h2>
            Service: <span data-testid="health-status">{health.status}</span> <small>v{health.version}</small>
          </h2>
          <ul>
            {Object.entries(health.dependencies).map(([name, dep]) => (
              <li key={name}>
                {name}: {dep.status}
                {dep.detail ? ` (${dep.detail})` : ''}
              </li>
            ))}
          </ul>
        </section>
      )}
      <p>
        API reference: <a href="/docs">/docs</a>
      </p>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

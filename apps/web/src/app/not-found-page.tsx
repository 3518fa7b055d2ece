import { Link } from 'react-router';

export const NotFoundPage = () => (
  <main className="flex min-h-screen flex-col items-center justify-center gap-3 p-4 text-center">
    <h1 className="text-2xl font-semibold">Page not found</h1>
    <p className="text-muted">The page you are looking for does not exist.</p>
    <Link to="/" className="underline decoration-primary decoration-2">
      Go home
    </Link>
  </main>
);

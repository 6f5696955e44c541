import { createBrowserRouter } from 'react-router';
import { Layout } from './Layout';

/** Every page, each loaded on demand so that a route only downloads its own code. */
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { index: true, lazy: async () => ({ Component: (await import('../features/landing/LandingPage')).LandingPage }) },
      { path: '*', lazy: async () => ({ Component: (await import('./NotFoundPage')).NotFoundPage }) },
    ],
  },
]);

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { appConfig } from './lib/config';
import { reloadOnStaleChunks } from './lib/new-version';
import { startConsent } from './consent/consent';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

reloadOnStaleChunks();

// Consent defaults go into the data layer before anything can load a tag.
const consent = startConsent(appConfig().gtmContainerId);

createRoot(container).render(
  <StrictMode>
    <App consent={consent} />
  </StrictMode>,
);

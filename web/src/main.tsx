import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { readAppConfig } from './app/config';
import { reloadOnStaleChunks } from './app/new-version';
import { startConsent } from './consent/consent';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

reloadOnStaleChunks();

// Consent defaults go into the data layer before anything can load a tag.
const consent = startConsent(readAppConfig().gtmContainerId);

createRoot(container).render(
  <StrictMode>
    <App consent={consent} />
  </StrictMode>,
);

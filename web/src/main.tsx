import { bootApp } from './app/boot';
import { appConfig } from './lib/config';
import { reloadOnStaleChunks } from './lib/new-version';
import { startConsent } from './consent/consent';
import './styles.css';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

reloadOnStaleChunks();

// Consent defaults go into the data layer before anything can load a tag.
bootApp(container, startConsent(appConfig().gtmContainerId));

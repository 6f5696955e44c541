import { configure } from '@testing-library/react';

// findBy… and waitFor wait for the DOM to change; their one-second default is a guess for a quiet
// machine, and a busy one renders ten times slower. The bound only catches what never appears.
configure({ asyncUtilTimeout: 30_000 });

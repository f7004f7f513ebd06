import '@testing-library/jest-dom';
import { configure } from '@testing-library/react';

// Two shared cores run several suites at once: give async queries room.
configure({ asyncUtilTimeout: 5000 });

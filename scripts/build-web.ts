/** `npm run build:web`: always builds the web app, quietly (scripts/web-build.ts). */
import { buildWeb } from './web-build';

buildWeb({ force: true });

// Bundles the server (with the workspace contract inlined) into dist/; npm packages stay external.
import { bundleServer } from './bundle.mjs';

await bundleServer('dist');

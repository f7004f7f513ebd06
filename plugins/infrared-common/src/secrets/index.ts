export { SCRUBBED, scrubSecrets, scrubbedMessage, scrubError } from './scrub';

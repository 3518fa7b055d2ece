/**
 * Launch pauses and resumes channel connections; the pause itself is a state of the connection,
 * read by every channel that answers or sends (connections/pauses.ts).
 */
export {
  CONNECTION_PAUSES_CHANNEL,
  isConnectionPaused,
  PAUSED_MESSAGE,
  setPaused,
} from '../connections/pauses';

/** Launch's pauses are a state of the connection: the table lives with connections (connections/schema.ts). */
export { connectionPauses } from '../connections/schema';

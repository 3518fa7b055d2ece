/** Live events of a connection's messages (the sandbox phone, the campaign figures). */
export const channelEvents = (connectionId: string) => `channel:${connectionId}:messages`;

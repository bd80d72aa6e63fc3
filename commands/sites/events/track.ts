import { operationCommand } from '../../_lib/operation-command.js';

export default operationCommand({
  operationId: 'trackEventsInSiteById',
  description:
    "Record events of a site's insights (page views, searches, feedback, link clicks: the published site records its own; this is for other sources). Times within 5 minutes of now",
  examples: [
    `<%= config.bin %> sites events track szK9Qp2mTtR4bLx0aVn1 --events '[{"type":"page_view","session":{"visitorId":"v1","sessionId":"s1","cookies":{},"userAgent":"curl","language":null,"referrer":null},"location":{"url":"https://docs.example.com/","siteSection":null,"siteSpace":null,"siteShareKey":null,"space":null,"revision":null,"page":null}}]'`,
    `<%= config.bin %> sites events track szK9Qp2mTtR4bLx0aVn1 --input events.json`,
  ],
  orgFlag: true,
  done: (_s, p) => `Recorded the events of site ${p.siteId}.`,
});

import * as Flags from '@oclif/core/flags';
import { operationCommand } from '../_lib/operation-command.js';

export default operationCommand({
  operationId: 'getPublishedContentByUrl',
  description:
    'What an address of a site published by this server shows, as its visitor sees it: the site, section, site space, space, revision and page path, with a short-lived token reading that space as you',
  examples: [
    '<%= config.bin %> urls published --url http://127.0.0.1:7780/sites/acme/handbook/guides/setup --json',
    '<%= config.bin %> urls published --url "http://127.0.0.1:7780/sites/acme/internal?share=3vQm9XbL2pTt8RkYc0aZnW5sHd1JfE7gU4iO6yKx" --jq .siteSpace',
  ],
  summary: false,
  flags: {
    'visitor-auth-token': Flags.string({ description: "A signed visitor token (JWT) for a visitor-auth site, or claims the site's pages depend on" }),
    'redirect-on-error': Flags.boolean({
      allowNo: true,
      description: "Without a valid visitor token, answer where the site's sign-in backend would send the visitor instead of 404",
    }),
  },
});

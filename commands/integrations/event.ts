import * as Args from '@oclif/core/args';
import { DocsCommand } from '../_lib/base.js';
import { renderObject } from '../_lib/render.js';

export default class Event extends DocsCommand {
  static operations = ['getIntegrationEvent'];
  static summary = 'Show one event of an integration, with its trace';
  static description = 'API: GET /v1/integrations/{integrationName}/events/{eventId} (getIntegrationEvent).';
  static examples = [
    '<%= config.bin %> integrations event slack Qm8vT2xLp0RsWn4kZ7cY',
    '<%= config.bin %> integrations event slack Qm8vT2xLp0RsWn4kZ7cY --json',
  ];
  static args = {
    integrationName: Args.string({ description: 'The integration (its name, e.g. my-integration)', required: true }),
    eventId: Args.string({ description: 'The event (its ID)', required: true }),
  };

  async run(): Promise<unknown> {
    const { args, flags } = await this.parse(Event);
    const transport = await this.transport(flags);
    const r = await transport.call('getIntegrationEvent', { path: args });
    const body = r.body as { event: any; trace?: { logs: { message: string; timestamp: string; level: string }[] } };
    if (!this.jsonEnabled()) {
      this.log(renderObject(body.event));
      this.log('trace:');
      for (const l of body.trace?.logs ?? []) this.log(`  ${l.timestamp} ${l.level.padEnd(5)} ${l.message}`);
    }
    return body;
  }
}

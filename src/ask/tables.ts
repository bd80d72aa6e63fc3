import { table } from '../store/port.js';
import type { AskQuestionRecord, AskResponseRecord } from './model.js';

// The tables this area owns (see Table in src/store/port.ts): questions asked and AI responses
// given (docs/manual/ask.md). The second type lists the fields `find` may query, as
// src/store/tables.ts indexes them.

export const AskQuestions = table<AskQuestionRecord, 'organization'>('askQuestions');
export const AskResponses = table<AskResponseRecord, 'organization'>('askResponses');

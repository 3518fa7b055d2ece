import type { TAppToolIssue } from '@switchboard/core';
import { AlertTriangle } from 'lucide-react';
import { Link } from 'react-router';

const STATUS_TEXT: Record<TAppToolIssue['status'], string> = {
  not_connected: 'is no longer connected',
  pending_connection: 'is not connected yet',
  failed: 'failed (Reconnect App)',
  auth_required: 'needs its account connected again (Connect Account)',
};

/** Launch checklist: agents that would call an app tool whose app or MCP server is not connected. */
export const AppToolIssues = ({ issues, subaccountName }: { issues: TAppToolIssue[]; subaccountName: string }) =>
  issues.length ? (
    <div className="mt-4 rounded-lg border border-border bg-surface p-4">
      <h3 className="mb-2 text-sm font-semibold">App tools to connect</h3>
      <ul className="space-y-1 text-sm" aria-label={`App tools to connect in ${subaccountName}`}>
        {issues.map((issue) => (
          <li key={`${issue.agentId}:${issue.source}:${issue.ownerId}`} className="flex items-start gap-2">
            <AlertTriangle size={16} className="mt-0.5 shrink-0 text-danger" aria-hidden="true" />
            <span>
              <Link to={`/agents/${issue.agentId}`} className="font-medium underline">
                {issue.agentName}
              </Link>{' '}
              uses {issue.tools.join(', ')}: {issue.ownerName ?? 'its app'}
              {issue.sandbox ? ' (Sandbox)' : ''} {STATUS_TEXT[issue.status]}.{' '}
              <Link
                to={issue.source === 'mcp' ? '/integrations/mcp' : '/integrations'}
                className="font-medium underline"
              >
                Open integrations<span className="sr-only"> for {issue.agentName}</span>
              </Link>
            </span>
          </li>
        ))}
      </ul>
    </div>
  ) : null;

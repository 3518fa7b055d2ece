/**
 * The summary and description of every operation of the API reference (/api/docs), keyed by
 * "METHOD /path/{param}". A test keeps it in step with the routes: an operation without an entry
 * fails it.
 */
export const OPERATION_DOCS: Record<string, [summary: string, description: string]> = {
  'GET /api/auth/session': ['Current session', 'The signed-in user and their memberships, or null when signed out.'],
  'GET /api/auth/signin': [
    'Sign-in page redirect',
    'Sends a browser to the landing page with the sign-in dialog open.',
  ],
  'GET /api/auth/check-user': [
    'Check an email',
    'Whether an address already has an account (rate limited per client address).',
  ],
  'POST /api/auth/pre-register': [
    'Pre-register',
    'Creates the account of a new address before its first sign-in link.',
  ],
  'GET /api/auth/check-linked-access': ['Linked access', 'Whether the signed-in user can reach a linked account.'],
  'POST /api/auth/sign-in/magic-link': [
    'Send a sign-in link',
    'Mails a one-time sign-in link (rate limited per email and per client address).',
  ],
  'POST /api/auth/confirm': [
    'Spend a sign-in link',
    'Spends the token of a sign-in link once and starts a session (sets the session cookie).',
  ],
  'POST /api/auth/sign-out': ['Sign out', 'Ends the current session.'],
  'POST /api/direct-login': [
    'Direct sign-in',
    'Signs in an address listed in DIRECT_LOGIN_ALLOWLIST without an email link.',
  ],
  'GET /api/auth/google': ['Google sign-in', 'Starts Google sign-in (authorisation code with PKCE).'],
  'GET /api/auth/callback/google': [
    'Google callback',
    'Google returns here; the code is exchanged and a session starts.',
  ],
  'GET /api/dev/mailbox': ['Dev mailbox', 'Mail the server would have sent (development only; absent in production).'],
  'GET /api/accounts': ['List accounts', 'The agencies and sub-accounts the caller belongs to, with their roles.'],
  'POST /api/subaccounts': [
    'Create a sub-account',
    "Adds a client sub-account to the caller's agency, within the plan's limit.",
  ],
  'POST /api/accounts/{accountId}/transfer-ownership': [
    'Transfer ownership',
    'The owner hands the agency to an admin.',
  ],
  'GET /api/accounts/{accountId}/branding': [
    "Get the agency's branding",
    "The agency's slug (its sign-in page is /a/{slug}), brand name, logo, colour and email sender name its clients see, and whether the plan includes white-label branding (no platform name shown to clients). The account's manager only.",
  ],
  'PATCH /api/accounts/{accountId}/branding': [
    "Change the agency's branding",
    "Changes any of slug (lowercase a-z, 0-9 and hyphens, 3 to 40, reserved words refused), brand name, logo (https only), colour (#rrggbb) and email sender name; null clears an optional one. 409 when another agency has the slug. The account's manager only.",
  ],
  'GET /api/subaccounts/{subaccountId}/client-access': [
    "A client's switches",
    "What the people of this client (role client) may do beyond reading its agents, conversations and usage: editAgents, inbox (take over and reply), campaigns (campaigns and contacts). The account's manager only.",
  ],
  'PATCH /api/subaccounts/{subaccountId}/client-access': [
    "Change a client's switches",
    "Turns one or more of editAgents, inbox and campaigns on or off; takes effect at once in every process. The account's manager only.",
  ],
  'GET /api/portal/branding': [
    'Branding of a sign-in page',
    "The name, logo and colour of an agency and whether its plan hides the platform's name (whiteLabel). On an agency's verified custom domain that agency (another agency's slug there is 404); elsewhere the agency with the slug. A Host that is not a verified domain names no agency (404 without a slug). Public.",
  ],
  'GET /api/portal/context': [
    'Portal context',
    "For the signed-in person in the current sub-account: whether they see the client portal (role client), what the agency lets them do there, and the agency's branding.",
  ],
  'GET /api/accounts/{accountId}/domain': [
    "Get the agency's custom domain",
    "The account's custom domain for the client portal (null when none), its status, the token and the two ways to prove control (the HTTP path, the TXT record), and whether the plan includes it (white-label branding). The account's manager only.",
  ],
  'PUT /api/accounts/{accountId}/domain': [
    'Set the custom domain',
    "Sets the agency's one custom domain (lower case, IDNA; no address, port or path, not localhost nor the platform's own host). The same hostname keeps its token and status; another starts pending with a new token. 409 when another account verified it; 403 without white-label branding.",
  ],
  'DELETE /api/accounts/{accountId}/domain': [
    'Remove the custom domain',
    'Links asked for on that host use PUBLIC_URL again at once.',
  ],
  'GET /.well-known/switchboard-domain-verification': [
    "A custom domain's verification token",
    "On any host: the token (plain text) of the agency domain claimed for the request's Host, which the HTTP verification fetches; 404 when no account, or more than one account without a verified claim, claims it.",
  ],
  'POST /api/accounts/{accountId}/domain/verify': [
    'Verify the custom domain',
    "Checks now by the domain's method: over HTTP, fetches http://{hostname}/.well-known/switchboard-domain-verification through the outbound policy (public addresses only, 5 s, 1 KiB, redirects only on the same host) and compares the token; over DNS, reads the TXT record _switchboard.{hostname}. The result is recorded and answered (status verified or failed with the reason). A check already running answers 409.",
  ],
  'GET /api/accounts/{accountId}/client-billing': [
    'Client billing status',
    "Whether the plan includes client plans (white-label sub-accounts), the agency's connected Stripe (key mode, kind and last four characters, never the key; whether the webhook secret is saved), the webhook address to give Stripe, and whether clients check out in the labelled sandbox. The account's manager only.",
  ],
  'PUT /api/accounts/{accountId}/client-billing/stripe': [
    "Connect the agency's Stripe",
    'Checks the secret (sk_) or restricted (rk_) key with one call to Stripe (its balance) and stores it encrypted, with the optional webhook signing secret (whsec_). A key Stripe refuses, or of another shape, is a 422. 403 without white-label sub-accounts.',
  ],
  'PUT /api/accounts/{accountId}/client-billing/stripe/webhook-secret': [
    "Save the agency's webhook secret",
    "The signing secret of the agency's Stripe webhook endpoint (whsec_), stored encrypted; events are verified with it.",
  ],
  'DELETE /api/accounts/{accountId}/client-billing/stripe': [
    "Disconnect the agency's Stripe",
    "Forgets the key and the webhook secret. Subscriptions on the agency's Stripe go on there; new checkouts use the sandbox outside production and are refused in production.",
  ],
  'GET /api/accounts/{accountId}/client-plans': [
    'List client plans',
    'The plans the agency sells to its clients, with their number of live subscribers; archived ones too with archived=true.',
  ],
  'POST /api/accounts/{accountId}/client-plans': [
    'Create a client plan',
    'Name, monthly price in minor units and currency (usd by default), credits included each month, and the price per extra credit in minor units (null: the client stops at its included credits).',
  ],
  'PATCH /api/accounts/{accountId}/client-plans/{planId}': [
    'Change a client plan',
    'A new price applies to new subscriptions (subscribers keep theirs until they choose a plan again); new credits apply from their next invoice.',
  ],
  'DELETE /api/accounts/{accountId}/client-plans/{planId}': [
    'Delete or archive a client plan',
    'A plan nobody ever subscribed to is deleted; one with subscriptions is archived: no longer offered, kept for its subscribers.',
  ],
  'GET /api/accounts/{accountId}/client-billing/margin': [
    'Margin per client',
    "For a month (YYYY-MM, this month by default): per client, revenue (its invoices paid that month), credits used, platform cost (those credits at the agency's own price per credit) and margin, with totals.",
  ],
  'GET /api/accounts/{accountId}/client-billing/margin.csv': [
    'Export margin per client',
    'The same figures as CSV (a file to download); text cells starting with = + - @ are prefixed with an apostrophe.',
  ],
  'GET /api/subaccounts/{subaccountId}/client-plan': [
    "A client's plan",
    "The client's current plan, status and period, credits used and included this month, its invoices, the plans offered, and whether checkout runs in the sandbox. Anyone in the sub-account.",
  ],
  'POST /api/subaccounts/{subaccountId}/client-plan/checkout': [
    'Choose a client plan',
    "An admin of the client (or the agency's manager): a checkout on the agency's Stripe, or in the labelled sandbox when the agency connected none (never in production: 409). Concurrent requests share one checkout. A client already subscribed is moved to the plan (prorated) without a checkout.",
  ],
  'POST /api/subaccounts/{subaccountId}/client-plan/cancel': [
    'Cancel a client plan',
    "Ends the client's subscription at the end of the paid period.",
  ],
  'PUT /api/subaccounts/{subaccountId}/client-plan/balance': [
    "A client's low-balance alerts and top-up",
    "An admin of the client: the percents of the month's credits left at which its admins are mailed (each once a month), and the automatic top-up (buy topUpCredits with the saved card when fewer than topUpBelowCredits are left; at most hourly), for plans that stop at their included credits.",
  ],
  'GET /api/client-billing/sandbox/checkouts/{checkoutId}': [
    'Sandbox checkout of a client plan',
    "The sandbox checkout's plan and status, for an admin of its client.",
  ],
  'POST /api/client-billing/sandbox/checkouts/{checkoutId}/{outcome}': [
    'Pay or cancel a sandbox checkout',
    'pay: the client is subscribed with a first (sandbox) invoice and the allowance of its plan; cancel: the checkout closes.',
  ],
  'GET /api/connect-context/{connectId}': [
    'Resolve a connection id',
    'The sub-account and role a /{connectId}/ page belongs to.',
  ],
  'GET /api/subaccounts/{subaccountId}/members': ['List members', 'Members and open invitations of a sub-account.'],
  'POST /api/subaccounts/{subaccountId}/members': [
    'Invite a member',
    'Invites an address with a role no higher than the caller’s.',
  ],
  'PATCH /api/subaccounts/{subaccountId}/members/{userId}': [
    'Change a role',
    'Changes a member’s role (admins only; never above their own).',
  ],
  'DELETE /api/subaccounts/{subaccountId}/members/{userId}': [
    'Remove a member',
    'Removes a member (the owner cannot be removed).',
  ],
  'PATCH /api/subaccounts/{subaccountId}/invites/{inviteId}': [
    'Change an invitation',
    'Changes the role of an open invitation.',
  ],
  'DELETE /api/subaccounts/{subaccountId}/invites/{inviteId}': [
    'Withdraw an invitation',
    'Withdraws an open invitation.',
  ],
  'GET /api/sms/{connectId}/settings': [
    'Connection branding',
    'Company name, logo, theme and primary colour of a connection area.',
  ],
  'PATCH /api/sms/{connectId}/settings': [
    'Change connection branding',
    'Sets the theme or primary colour of a connection area.',
  ],
  'GET /api/subaccounts/{subaccountId}/theme': ['Sub-account theme', 'Dark or light mode and the primary colour.'],
  'PATCH /api/subaccounts/{subaccountId}/theme': [
    'Change the theme',
    'Sets dark/light mode (anyone) or the primary colour (admins).',
  ],
  'GET /api/openrouter/plans': ['Plans (legacy path)', 'The plan catalogue, as on /api/pricing/plans.'],
  'GET /api/pricing/plans': ['Plans', 'The plan catalogue with prices per cycle and the sales contact.'],
  'GET /api/openrouter/usage': [
    'Usage and credits',
    "The account's credit balance and plan (for the agency's owner or an admin of all its sub-accounts; null for anyone else), what the plan allows, and the recent usage log of the sub-accounts the caller belongs to.",
  ],
  'POST /api/openrouter/credits/redeem': [
    'Redeem a promo code',
    'Adds the credits of a promo code to the account once.',
  ],
  'GET /auth/check-access': ['Paid access', 'Whether the signed-in user has an active paid plan.'],
  'GET /api/billing/subaccount-selection': [
    'Active sub-account choice',
    'Sub-accounts to keep active after a downgrade.',
  ],
  'POST /api/billing/subaccount-selection': [
    'Choose the active sub-account',
    'Keeps one sub-account active on a smaller plan.',
  ],
  'POST /api/stripe/create-checkout': [
    'Start a checkout',
    'Creates a checkout session for a plan (Stripe, or the sandbox).',
  ],
  'POST /api/stripe/upgrade-subscription': ['Upgrade', 'Moves the subscription to a higher plan now, prorated.'],
  'POST /api/stripe/create-portal': ['Billing portal', "Opens the payment provider's customer portal."],
  'GET /api/stripe/subscription-details': ['Subscription', 'The current plan, cycle, renewal and scheduled changes.'],
  'POST /api/stripe/preview-upgrade': ['Preview an upgrade', 'What an upgrade would cost today.'],
  'POST /api/stripe/schedule-downgrade': ['Schedule a downgrade', 'Moves to a lower plan at the end of the period.'],
  'POST /api/stripe/cancel-scheduled-downgrade': ['Cancel a scheduled downgrade', 'Keeps the current plan.'],
  'POST /api/stripe/cancel-subscription': ['Cancel', 'Cancels at the end of the period (or undoes that).'],
  'POST /api/stripe/resubscribe': ['Resubscribe', 'Undoes a cancellation before the period ends.'],
  'POST /stripe/create-checkout': ['Start a checkout (short path)', 'Same as /api/stripe/create-checkout.'],
  'POST /stripe/upgrade-subscription': ['Upgrade (short path)', 'Same as /api/stripe/upgrade-subscription.'],
  'POST /stripe/create-portal': ['Billing portal (short path)', 'Same as /api/stripe/create-portal.'],
  'GET /stripe/subscription-details': ['Subscription (short path)', 'Same as /api/stripe/subscription-details.'],
  'POST /stripe/preview-upgrade': ['Preview an upgrade (short path)', 'Same as /api/stripe/preview-upgrade.'],
  'POST /stripe/schedule-downgrade': ['Schedule a downgrade (short path)', 'Same as /api/stripe/schedule-downgrade.'],
  'POST /stripe/cancel-scheduled-downgrade': [
    'Cancel a scheduled downgrade (short path)',
    'Same as /api/stripe/cancel-scheduled-downgrade.',
  ],
  'POST /stripe/cancel-subscription': ['Cancel (short path)', 'Same as /api/stripe/cancel-subscription.'],
  'POST /stripe/resubscribe': ['Resubscribe (short path)', 'Same as /api/stripe/resubscribe.'],
  'GET /api/billing/sandbox/checkouts/{checkoutId}': [
    'Sandbox checkout',
    'A checkout of the sandbox payment provider (no real payment).',
  ],
  'POST /api/billing/sandbox/checkouts/{checkoutId}/complete': [
    'Complete a sandbox checkout',
    'Pays or fails a sandbox checkout on demand.',
  ],
  'GET /api/agents': ['List agents', 'Agents of the current sub-account, paginated.'],
  'POST /api/agents': ['Create an agent', 'Creates an agent within the plan’s agents-per-sub-account limit.'],
  'GET /api/subaccounts/{subaccountId}/agents': [
    'List agents of a sub-account',
    'Agents of the named sub-account, paginated.',
  ],
  'GET /api/agents/{agentId}': ['Get an agent', 'An agent with its prompt, model, sampling settings and tools.'],
  'PATCH /api/agents/{agentId}': ['Update an agent', 'Changes any of an agent’s settings.'],
  'DELETE /api/agents/{agentId}': ['Delete an agent', 'Deletes an agent, its documents and conversations.'],
  'POST /api/agents/{agentId}/duplicate': ['Duplicate an agent', 'Copies an agent (counts against the plan’s limit).'],
  'GET /api/builds': ['List builds', 'Agents as the designer and demos pick them ("builds").'],
  'GET /api/builds/{buildId}': ['Get a build', 'One agent as a build, with its assistant id.'],
  'POST /api/agent/build': [
    'Build an agent from an idea',
    'Queues the builder job: the chosen model (or the offline writer) drafts name, instructions, greeting and suggestions. The plan limit is checked first.',
  ],
  'GET /api/agent/jobs/{jobId}': [
    'Builder job status',
    'Poll every 750 ms until succeeded (result.data.agentId) or failed.',
  ],
  'GET /api/models': ['Models', 'The models the account can use: the offline model and each configured provider’s.'],
  'POST /api/agents/{agentId}/chat': [
    'Test chat (SSE)',
    'Streams an agent’s reply as server-sent events (delta, done, error).',
  ],
  'GET /api/agents/{agentId}/threads': [
    'Conversations of an agent',
    'Threads of an agent on every channel, newest first.',
  ],
  'GET /api/threads/{threadId}': ['A conversation', 'Messages of a thread with sources and tool calls.'],
  'POST /api/openai/run-prompt': ['Run a prompt (legacy)', 'One reply of an agent by its assistant id.'],
  'POST /api/openrouter/chat': ['Chat with a build (legacy)', 'One reply of an agent by its build id.'],
  'GET /api/integrations/apps': [
    'Connectable apps',
    "The apps a sub-account can connect: Composio's toolkits, or the sandbox catalogue (calendar, CRM, email) when no Composio key is set.",
  ],
  'GET /api/integrations/connections': [
    'App connections',
    "The sub-account's app connections with their status (pending_connection, connected, failed, auth_required) and discovered tools.",
  ],
  'POST /api/integrations/connections': [
    'Connect an app',
    'Connects an app: API-key apps connect at once (the key is checked); OAuth apps answer the URL the browser goes to.',
  ],
  'GET /api/integrations/oauth/callback': [
    'App OAuth callback',
    "Where an app's consent returns: marks the connection connected (or not) and goes back to the Integrations page.",
  ],
  'DELETE /api/integrations/connections/{integrationId}': [
    'Disconnect an app',
    'Revokes the connected account and removes the connection; agents keep their tools but cannot call them.',
  ],
  'POST /api/integrations/connections/{integrationId}/rediscover': [
    'Rediscover app tools',
    "Reads the app's tools again and keeps them on the connection.",
  ],
  'GET /api/integrations/status': [
    'Integration status store',
    'The map of lower-case integration name to connected, and the entries connection:{id} and trigger:{app_slug}.',
  ],
  'GET /api/integrations/sandbox/records': [
    'Sandbox app records',
    'Bookings, contacts and emails the sandbox apps hold for the sub-account (newest first).',
  ],
  'GET /api/agents/{agentId}/app-tools': [
    'App tools of an agent',
    "The tools the agent's sub-account offers, grouped by app connection or MCP server, with each group's status.",
  ],
  'GET /api/connect/{connectId}/providers': [
    'AI providers',
    'Configured provider keys (last four characters only) and their models.',
  ],
  'PUT /api/connect/{connectId}/providers/{provider}': [
    'Save a provider key',
    'Tests the key by listing models, then stores it encrypted.',
  ],
  'DELETE /api/connect/{connectId}/providers/{provider}': [
    'Remove a provider key',
    'Deletes a provider key; its agents fall back to the offline model.',
  ],
  'GET /api/agents/{agentId}/documents': [
    'Knowledge documents',
    'Documents an agent answers from, and how they are searched: `search.mode` hybrid (keywords and meaning, with `indexed` of `total` passages embedded) or keyword.',
  ],
  'POST /api/agents/{agentId}/documents': [
    'Upload a document',
    'Multipart upload (PDF, DOCX, CSV, Markdown, images; 25 MB), read into passages.',
  ],
  'POST /api/agents/{agentId}/websites': [
    'Import a website',
    'Crawls a page or a sitemap within the same site (robots.txt respected, a page limit) and keeps each page as a document named by its address; sending the same site again re-crawls it.',
  ],
  'DELETE /api/agents/{agentId}/documents/{documentId}': ['Delete a document', 'Removes a document and its passages.'],
  'GET /api/api-keys': ['List API keys', 'Platform API keys of the sub-account (never the key itself).'],
  'POST /api/api-keys': ['Create an API key', 'Answers the key once; use it as `Authorization: Bearer sk_sb_…`.'],
  'DELETE /api/api-keys/{keyId}': ['Revoke an API key', 'The key stops working at once.'],
  'GET /v1/models': ['OpenAI: list models', 'The sub-account’s agents as OpenAI models (id = agent id).'],
  'POST /v1/chat/completions': [
    'OpenAI: chat completion',
    'An agent’s reply in the OpenAI shape, streamed or not, with usage, response_format (JSON) and your own tools; unsupported parameters answer 400. Send X-Thread-Id to continue a stored conversation.',
  ],
  'GET /api/subaccounts/{subaccountId}/connections': [
    'List widget connections',
    'Website widgets and blocks of a sub-account.',
  ],
  'POST /api/connections': [
    'Add a widget',
    'Creates a website widget or block for an agent, taking the agent’s name, greeting and suggestions.',
  ],
  'GET /api/connections/{connectionId}': ['Get a widget connection', 'Saved and deployed settings of a widget.'],
  'GET /api/connections/{connectionId}/identity-secret': [
    'Identity secret of a widget',
    'The secret your server signs a signed-in user’s id with (HMAC-SHA256, hex) for Switchboard.identify (admins only).',
  ],
  'PUT /api/connections/{connectionId}': ['Save widget settings', 'Saves the designer’s settings (live after Deploy).'],
  'PUT /api/connections/{connectionId}/update-build': [
    'Change the widget’s agent',
    'Points the widget at another agent of the sub-account.',
  ],
  'DELETE /api/connections/{connectionId}': [
    'Delete a widget',
    'Deletes a website widget or block: its embed code stops answering at once. Past conversations are kept.',
  ],
  'POST /api/connections/{connectionId}/deploy': [
    'Deploy a widget',
    'Publishes the saved settings and agent to live embeds.',
  ],
  'POST /api/connections/{connectionId}/preview-chat': [
    'Designer preview chat',
    'A reply of the widget’s agent for the designer’s preview.',
  ],
  'POST /api/widget/{widgetId}/chat': [
    'Widget chat (public)',
    'A visitor’s message to a deployed widget; streamed when asked. Called by the widget from allowed sites.',
  ],
  'GET /api/widget/{widgetId}/conversations': [
    'Visitor conversations (public)',
    'A visitor’s conversations by contact identifier.',
  ],
  'GET /api/widget/{widgetId}/threads/{threadId}/messages': [
    'Visitor messages (public)',
    'Messages of a visitor’s thread (including a person’s replies).',
  ],
  'GET /api/widget/{widgetId}/threads/{threadId}/events': [
    'Visitor events (public, SSE)',
    'A person’s replies to the visitor, live.',
  ],
  'GET /api/connections/{connectionId}/conversations': ['Inbox', 'Conversations of a widget, newest first.'],
  'GET /api/connections/{connectionId}/conversations/events': [
    'Inbox events (SSE)',
    'New messages of the widget’s conversations, live.',
  ],
  'GET /api/connections/{connectionId}/conversations/{threadId}': [
    'Inbox transcript',
    'One conversation with its messages.',
  ],
  'POST /api/connections/{connectionId}/conversations/{threadId}/takeover': [
    'Take over or hand back',
    'A person answers instead of the agent, or hands back.',
  ],
  'POST /api/connections/{connectionId}/conversations/{threadId}/messages': [
    'Reply as a person',
    'Sends a person’s reply to the visitor (takes the conversation over).',
  ],
  'GET /api/subaccounts/{subaccountId}/inbox/threads': [
    'Team inbox',
    'Conversations of every channel of the sub-account, newest first; filter by channel, label and assignee (me, none or a user id), combined.',
  ],
  'GET /api/subaccounts/{subaccountId}/inbox/events': [
    'Team inbox events',
    'Every change of the sub-account’s conversations (messages, take-overs, assignees, labels, contacts) and of its labels and canned replies, live.',
  ],
  'PUT /api/subaccounts/{subaccountId}/inbox/threads/{threadId}/assignee': [
    'Assign a conversation',
    'Gives the conversation to a person of the sub-account who can answer, or to nobody (null).',
  ],
  'PUT /api/subaccounts/{subaccountId}/inbox/threads/{threadId}/labels': [
    'Label a conversation',
    'The labels the conversation carries from now on (at most 10, each of the sub-account).',
  ],
  'GET /api/subaccounts/{subaccountId}/inbox/threads/{threadId}/contact': [
    'Contact profile',
    'The person behind the conversation: name, number or username, notes and every conversation they had on every channel.',
  ],
  'PATCH /api/subaccounts/{subaccountId}/inbox/threads/{threadId}/contact': [
    'Edit a contact profile',
    'Saves the contact’s name and notes, shared by all their conversations.',
  ],
  'GET /api/subaccounts/{subaccountId}/inbox/assignees': [
    'Assignees',
    'The people a conversation can be given to (everyone of the sub-account but viewers).',
  ],
  'GET /api/subaccounts/{subaccountId}/inbox/labels': ['Inbox labels', 'The sub-account’s labels, by name.'],
  'POST /api/subaccounts/{subaccountId}/inbox/labels': [
    'Create a label',
    'A new label with a colour; names are unique in the sub-account whatever their case (at most 50 labels).',
  ],
  'PATCH /api/subaccounts/{subaccountId}/inbox/labels/{labelId}': ['Edit a label', 'Renames or recolours a label.'],
  'DELETE /api/subaccounts/{subaccountId}/inbox/labels/{labelId}': [
    'Delete a label',
    'Deletes the label; conversations that carried it lose it.',
  ],
  'GET /api/subaccounts/{subaccountId}/inbox/canned-replies': [
    'Canned replies',
    'Saved answers people insert in the reply box.',
  ],
  'POST /api/subaccounts/{subaccountId}/inbox/canned-replies': [
    'Create a canned reply',
    'A title and a text; titles are unique in the sub-account (at most 200).',
  ],
  'PUT /api/subaccounts/{subaccountId}/inbox/canned-replies/{cannedReplyId}': [
    'Edit a canned reply',
    'Replaces the title and text.',
  ],
  'DELETE /api/subaccounts/{subaccountId}/inbox/canned-replies/{cannedReplyId}': [
    'Delete a canned reply',
    'Deletes a saved answer.',
  ],
  'GET /api/demos': ['List demos', 'Demos of the sub-account with their request counts.'],
  'POST /api/demos': ['Create a demo', 'A shareable demo of an agent in one of five presentations.'],
  'GET /api/demos/{demoId}': ['Get a demo', 'A demo with its settings and agent.'],
  'PATCH /api/demos/{demoId}': ['Update a demo', 'Changes a demo’s name, agent, limit or settings.'],
  'DELETE /api/demos/{demoId}': ['Delete a demo', 'The share link stops working.'],
  'POST /api/demos/{demoId}/reset-count': ['Reset the request count', 'Sets the demo’s used requests back to 0.'],
  'GET /api/shared/demos/{demoId}': [
    'Shared demo (public)',
    'What a shared demo page needs, and nothing of the agency.',
  ],
  'POST /api/check-embeddable': [
    'Can a site be framed',
    'Whether a website allows being shown in a frame (demo backgrounds).',
  ],
  'POST /api/demo-chat': ['Demo chat (public)', 'A demo visitor’s message; counts against the demo’s request limit.'],
  'GET /api/evaluation/models': ['Evaluation models', 'Models for simulated users and the judge.'],
  'GET /api/templates': ['Test templates', 'Saved test settings of the sub-account.'],
  'POST /api/templates': ['Save a template', 'Saves the current test settings as a template.'],
  'POST /api/questiongenerator': ['Generate questions', 'Queues question generation for the categories asked.'],
  'GET /api/questiongenerator/{id}': ['Generated questions', 'Status and questions of a generation job.'],
  'POST /api/evaluation/run/evaluationdata': ['Run an evaluation', 'Starts a run of the questions against the agent.'],
  'POST /api/openai/assistants/run/evaluationdata': [
    'Run an evaluation (assistants path)',
    'Same as /api/evaluation/run/evaluationdata.',
  ],
  'POST /api/evaluation/runs/from-template': ['Run a template', 'Starts a run from a saved template.'],
  'GET /api/evaluation/runs': ['List runs', 'Evaluation runs of the sub-account, newest first.'],
  'GET /api/evaluation/compare': ['Compare runs', 'Two runs side by side, question by question.'],
  'GET /api/evaluation/runs/{runId}': ['Get a run', 'Progress and summary of a run.'],
  'GET /api/evaluation/runs/{runId}/results': [
    'Run results',
    'Every conversation of a run with its transcript and verdict.',
  ],
  'POST /api/evaluation/runs/{runId}/cancel': ['Cancel a run', 'Stops a run; finished conversations are kept.'],
  'GET /api/evaluation/runs/{runId}/export.csv': ['Export as CSV', 'The results of a run as CSV.'],
  'GET /api/evaluation/runs/{runId}/export.json': ['Export as JSON', 'The results of a run as JSON.'],
  'GET /api/evaluation/runs/{runId}/report': ['Run report', 'A printable HTML report of a run.'],
  'GET /api/evaluation/runs/{runId}/owasp': [
    'OWASP Top 10 of a run',
    "The run's red-team results by OWASP Top 10 for LLM Applications (2025) item: risk score, counts, trend against the previous run.",
  ],
  'GET /api/evaluation/runs/{runId}/owasp/report': [
    'Printable OWASP report',
    'The OWASP Top 10 for LLM Applications (2025) table of a run as a printable HTML page.',
  ],
  'GET /api/evaluation/runs/{runId}/events': ['Run events (SSE)', 'Progress of a run, live.'],
  'GET /api/health': ['Health', 'Database and Redis status and the version; 503 when the database does not answer.'],
  'GET /api/health/live': [
    'Liveness',
    'Answers 200 while the process runs, whatever its database: for a liveness probe.',
  ],
  'GET /api/health/ready': [
    'Readiness',
    'Answers 503 from the moment the process is told to stop and while its database does not answer: point the load balancer here.',
  ],
  'GET /api/usage/breakdown': [
    'Usage breakdown',
    "Credits and tokens used between from and to, aggregated by the database by day, sub-account, agent, channel or model (groupBy); a client's login sees its own sub-accounts' calls only.",
  ],
  'GET /api/billing/allowances': [
    'List client allowances',
    "Each sub-account's optional monthly credit allowance and what it has used this month: every sub-account for the agency's owner or an admin of all its sub-accounts, the caller's own for anyone else.",
  ],
  'PUT /api/billing/allowances/{subaccountId}': [
    'Set a client allowance',
    "Sets or clears a sub-account's monthly credit allowance; at the allowance its channels stop answering.",
  ],
  'GET /api/billing/overview': [
    'Billing overview',
    "The Billing section of Settings: current plan, renewal or end date, saved payment method, invoices from the payment provider (Stripe or the labelled sandbox), credit packs, low-balance alerts and auto-recharge. Only for the agency's owner or an admin of all its sub-accounts (403 for anyone else).",
  ],
  'PUT /api/billing/low-balance-alerts': [
    'Set low-balance alerts',
    "Percentages of the period's credits (1 to 99, at most 5) at which the account owner is emailed; each threshold is mailed once per billing period.",
  ],
  'PUT /api/billing/auto-recharge': [
    'Set auto-recharge',
    'Below thresholdCredits, buy the chosen one-time credit pack with the saved payment method: at most once an hour, never twice at once.',
  ],
  'GET /api/subaccounts/{subaccountId}/channels': [
    'List SMS, WhatsApp and Instagram agents',
    "The sub-account's SMS, WhatsApp or Instagram connections with their transport (Twilio, Meta or sandbox) and state (pending_connection, live, error), and whether this server runs the sandbox (sandboxAvailable).",
  ],
  'POST /api/channels': [
    'Create an SMS, WhatsApp or Instagram agent',
    'Creates a connection with its agent and Twilio credentials and sender, or for Instagram the page access token and app secret (checked with one call and encrypted), or the sandbox without credentials where the server runs it (production: only with MESSAGING_SANDBOX=true; otherwise 422 naming what to enter).',
  ],
  'GET /api/channels/{connectionId}': [
    'Get an SMS, WhatsApp or Instagram agent',
    "The connection, its state, transport, sender and the webhook URL to paste into Twilio (Instagram: Meta's callback URL and verify token).",
  ],
  'PATCH /api/channels/{connectionId}': [
    'Update an SMS, WhatsApp or Instagram agent',
    'Changes the agent, sender or credentials; new credentials are checked before they are saved.',
  ],
  'GET /api/channels/{connectionId}/messages': [
    'List channel messages',
    'Messages in and out of the connection, newest first, with delivery state and error code.',
  ],
  'GET /api/channels/{connectionId}/events': [
    'Live channel events',
    "Server-sent events of the connection's messages, for the sandbox phone and the live figures.",
  ],
  'POST /api/channels/{connectionId}/sandbox/inbound': [
    'Text the sandbox',
    'Sends a message to the agent as any number (Instagram: as any username) through the sandbox transport (STOP, START and HELP included on SMS and WhatsApp); 409 where the server runs no sandbox.',
  ],
  'GET /api/channels/instagram/setup': [
    'Instagram setup options',
    'Whether "Connect with Meta" (OAuth) is configured on this server (META_APP_ID and META_APP_SECRET) and the Graph API base URL.',
  ],
  'POST /api/channels/instagram/oauth/start': [
    'Start Connect with Meta',
    "Creates the Instagram agent in state pending_connection (app_slug instagram) and answers Meta's login URL; its state parameter is bound to this browser.",
  ],
  'GET /api/channels/instagram/oauth/callback': [
    'Finish Connect with Meta',
    "Meta's redirect: checks the state, exchanges the code for the page token, subscribes the page to webhooks and returns to the Instagram Agent page.",
  ],
  'GET /api/channels/{connectId}/messaging-settings': [
    'Get messaging settings',
    "The sub-account's time zone, default country and quiet hours for campaigns.",
  ],
  'PATCH /api/channels/{connectId}/messaging-settings': [
    'Update messaging settings',
    'Changes the time zone, default country or quiet hours.',
  ],
  'GET /api/channels/{connectId}/contacts': [
    'List contacts',
    "The sub-account's contacts with tags and opt-out state (the suppression list: of this connection's sender, or of any sender when given a sub-account id), paginated and searchable.",
  ],
  'POST /api/channels/{connectId}/contacts': [
    'Add a contact',
    'Adds one contact; the number is normalised to E.164 (MESSAGE_INVALID_NUMBER when it cannot be).',
  ],
  'PATCH /api/channels/{connectId}/contacts/{contactId}': [
    'Update a contact',
    "Changes a contact's name, tags or opt-out state.",
  ],
  'DELETE /api/channels/{connectId}/contacts/{contactId}': ['Delete a contact', 'Removes a contact.'],
  'POST /api/channels/{connectId}/contacts/import/preview': [
    'Preview a contacts CSV',
    "Reads the CSV's columns and first rows so the columns can be mapped; nothing is stored.",
  ],
  'POST /api/channels/{connectId}/contacts/import': [
    'Import contacts from CSV',
    'Imports the mapped CSV and reports rejected rows (invalid numbers, duplicates). The contacts are stored in slices; if the database fails part-way, the answer says how many were saved, and the same file again saves the rest.',
  ],
  'GET /api/channels/{connectionId}/campaigns': [
    'List campaigns',
    "The connection's campaigns with their state and figures.",
  ],
  'POST /api/channels/{connectionId}/campaigns': [
    'Create a campaign',
    'Creates a draft campaign: audience, message or template with variables, schedule and send rate, and optionally a sequence: up to 9 later `steps`, each with a delay (1 minute to 90 days), a condition on replies and a message; `stopOnReply` and `stopOnGoal` say what takes a recipient out.',
  ],
  'GET /api/channels/{connectionId}/campaigns/{campaignId}': [
    'Get a campaign',
    "The campaign with its live figures: queued, sent, delivered, failed, replied and opted out; for a sequence, `sequence.steps` with each step's sent, delivered, failed, replied, converted, left and waiting.",
  ],
  'PUT /api/channels/{connectionId}/campaigns/{campaignId}': [
    'Update a campaign',
    "Changes a draft or scheduled campaign. `steps` left out keeps the sequence's steps; an empty list removes them.",
  ],
  'DELETE /api/channels/{connectionId}/campaigns/{campaignId}': [
    'Delete a campaign',
    'Deletes a campaign that is not sending.',
  ],
  'POST /api/channels/{connectionId}/campaigns/{campaignId}/start': [
    'Start a campaign',
    'Sends now or schedules it; a completed campaign answers CAMPAIGN_ALREADY_COMPLETED.',
  ],
  'POST /api/channels/{connectionId}/campaigns/{campaignId}/pause': [
    'Pause a campaign',
    'Stops sending after the messages in flight; nothing is lost.',
  ],
  'POST /api/channels/{connectionId}/campaigns/{campaignId}/resume': [
    'Resume a campaign',
    'Goes on sending where it stopped, never twice to a contact.',
  ],
  'POST /api/channels/{connectionId}/campaigns/{campaignId}/retry-unsent': [
    'Retry unsent',
    'Asks the provider again about the sends it could not confirm and sends only those it does not have; never twice to a contact.',
  ],
  'POST /api/channels/{connectionId}/campaigns/{campaignId}/cancel': [
    'Cancel a campaign',
    'Stops the campaign for good; unsent messages are not sent.',
  ],
  'GET /api/channels/{connectionId}/campaigns/{campaignId}/tracking': [
    'Campaign responses',
    'Sent, clicks on its short links, unique clickers, previews, replies, reported conversions and converted recipients, with points per hour (first 48 hours) or per day.',
  ],
  'GET /api/channels/{connectionId}/campaigns/{campaignId}/replies': [
    'Campaign replies',
    'What the campaign’s recipients wrote back, newest first, each with its conversation.',
  ],
  'POST /api/channels/{connectionId}/campaigns/{campaignId}/clone': [
    'Clone a campaign',
    'A draft copy named “… (copy)” with the same message and audience and no schedule.',
  ],
  'POST /api/channels/{connectionId}/campaigns/{campaignId}/conversions': [
    'Report a conversion',
    'Records a conversion of one recipient (by contact id or phone number) from the agency’s own system, with an optional value; the same external id again answers the conversion already recorded.',
  ],
  'GET /api/channels/{connectionId}/instagram/pages': [
    'Instagram accounts to choose',
    'The pages with an Instagram account that Meta shared during Connect with Meta, while the choice is open (10 minutes); no tokens.',
  ],
  'POST /api/channels/{connectionId}/instagram/page': [
    'Choose the Instagram account',
    'Connects the chosen page: subscribes it to the app for messages and postbacks, and the connection goes live once Meta confirms.',
  ],
  'GET /api/channels/{connectionId}/campaigns/{campaignId}/audience': [
    'Campaign audience',
    'The audience as it stands: every contact, those skipped as suppressed or opted out, the recipients, and how many of them quiet hours would hold if sent now.',
  ],
  'GET /api/channels/{connectionId}/campaigns/{campaignId}/estimate': [
    'Campaign cost estimate',
    'Segments of every recipient’s message (GSM-7 or UCS-2 as sending counts them; one per WhatsApp message) times the price per segment entered in the connection’s settings; campaigns spend no credits.',
  ],
  'POST /api/channels/{connectionId}/campaigns/{campaignId}/test-send': [
    'Test send',
    'Sends the campaign’s message once to the number given, through the connection (a sandbox connection: to the sandbox phone), outside the campaign’s figures; at most 5 per connection every 10 minutes.',
  ],
  'GET /api/channels/{connectionId}/whatsapp-templates': [
    'Approved WhatsApp templates',
    'The WhatsApp templates of the connection that WhatsApp approved, read from Twilio’s Content API (kept a minute; `refresh=true` reads again), with their text and variables; a sandbox connection offers labelled sample templates.',
  ],
  'POST /api/channels/{connectionId}/whatsapp-templates/preview': [
    'Preview a WhatsApp template',
    'The approved template filled for a sample contact with each variable’s mapping (first name, last name, phone, email, custom field or fixed text); every variable must be mapped.',
  ],
  'GET /api/connections/{connectionId}/conversations/{threadId}/whatsapp-window': [
    'WhatsApp window',
    'Whether WhatsApp’s 24-hour window with the thread’s contact is open, and when it closes.',
  ],
  'POST /api/connections/{connectionId}/conversations/{threadId}/whatsapp-template': [
    'Send a WhatsApp template',
    'A person sends an approved template to the thread’s contact, each variable filled (the way to write once the 24-hour window has closed); stored in the thread as its filled text.',
  ],
  'GET /api/channels/{connectionId}/campaigns/{campaignId}/timeline': [
    'Campaign timeline',
    'Messages sent, delivered, failed and replied per minute, for the chart.',
  ],
  'GET /api/channels/{connectionId}/campaigns/{campaignId}/export.csv': [
    'Export a campaign',
    'Every recipient with state, error code and times, as CSV.',
  ],
  'POST /api/evaluation/questions/import': [
    'Import test questions from CSV',
    'Reads a CSV (question, expected_answer, checks) into questions for the editor; any bad row is a 422 naming it, and nothing is imported.',
  ],
  'GET /api/templates/{templateId}/questions.csv': [
    'Export test questions as CSV',
    'The template’s custom questions as CSV (question, expected_answer, checks); cells a spreadsheet would run as formulas start with a quote.',
  ],
  'POST /api/evaluation/test-cases': [
    'Add a conversation to a test set',
    "Turns a real conversation into a replayable case of a template, with the agent's answer as the reference.",
  ],
  'POST /api/evaluation/runs/{runId}/share': [
    "Share a run's report",
    'Creates a share link to the branded report of a run.',
  ],
  'DELETE /api/evaluation/runs/{runId}/share': ['Stop sharing a report', "Revokes the run's share link."],
  'GET /api/evaluation/shared/{token}': [
    'Open a shared report',
    'The branded report of a run by its share link, without signing in.',
  ],
  'GET /api/marketplace/marketplace-images': ['Marketplace images', 'The project images shipped with the product.'],
  'GET /api/avatars': ['Avatars', 'The profile avatars shipped with the product.'],
  'GET /api/marketplace/projects': [
    'Browse marketplace projects',
    'Projects filtered by search, category, type, budget and timeframe, paginated.',
  ],
  'POST /api/marketplace/projects': [
    'Create a marketplace project',
    'Posts a project; limited per day (429 with dailyLimitReached, projectsToday and dailyLimit).',
  ],
  'GET /api/marketplace/projects/{projectId}': [
    'Get a marketplace project',
    "The project with its author's public profile; never the author's email address.",
  ],
  'PATCH /api/marketplace/projects/{projectId}': [
    'Update a marketplace project',
    'The author edits, closes or reopens the project.',
  ],
  'DELETE /api/marketplace/projects/{projectId}': ['Delete a marketplace project', 'The author deletes the project.'],
  'POST /api/marketplace/projects/{projectId}/respond': [
    'Answer a marketplace project',
    "Emails a message to the project's author through the app, without revealing the address.",
  ],
  'GET /api/userprofile': ['Get the user profile', "The signed-in user's marketplace profile and contact details."],
  'POST /api/userprofile': ['Save the user profile', "Creates or updates the signed-in user's marketplace profile."],
  'GET /api/user/rank': [
    'User rank',
    "The agency's level and points, with the next level's requirement and the breakdown.",
  ],
  'GET /api/support/tickets': ['List support tickets', "The user's support tickets with their status."],
  'POST /api/support/tickets': [
    'Send a support ticket',
    "Stores a ticket with the account's context and emails the operator's support address.",
  ],
  'GET /api/support/videos': ['Video guides', "The operator's video guides by task, or none."],
  'GET /api/support/tickets/{ticketId}': [
    'Read a support ticket',
    "One of the user's tickets with its thread: the operator's replies and the user's answers, oldest first.",
  ],
  'POST /api/support/tickets/{ticketId}/replies': [
    'Answer on a support ticket',
    "Adds the user's answer to their ticket, opens it again and emails it to the support address. `clientId` makes the post idempotent: the same id twice stores one answer (201, then 200).",
  ],
  'GET /api/operator/tickets': [
    'Support tickets (operator)',
    'Every ticket: open first, then agencies with priority support, then the oldest; `status` filters, paginated. Operators only (OPERATOR_EMAILS).',
  ],
  'GET /api/operator/tickets/{ticketId}': [
    'A support ticket (operator)',
    'The ticket, its agency with plan and credits, the context it was sent from and its thread. Operators only.',
  ],
  'POST /api/operator/tickets/{ticketId}/replies': [
    'Reply to a ticket (operator)',
    'Stores the reply, marks the ticket answered and emails the reply to the customer, in one transaction. `clientId` makes the post idempotent: the same id twice stores and mails one reply (201, then 200). Operators only.',
  ],
  'PATCH /api/operator/tickets/{ticketId}': [
    'Open or close a ticket (operator)',
    'Sets the ticket to open or closed. Operators only.',
  ],
  'GET /api/operator/accounts': [
    'Accounts (operator)',
    "Agencies with their owner's email, plan, credits balance and number of sub-accounts, newest first; `query` searches names and emails. Operators only.",
  ],
  'GET /api/affiliate': [
    'Affiliate summary',
    "The user's referral link, referred sign-ups, and pending, payable and paid commissions.",
  ],
  'POST /api/affiliate/attribute': [
    'Attribute a referral',
    "Attributes the signed-in user's new agency to a referral code.",
  ],
  'GET /api/affiliate/commissions.csv': ['Export commissions', 'The commission ledger as CSV.'],
  'GET /api/operator/affiliate/payable': [
    'Payable commissions (operator)',
    'Operators only (OPERATOR_EMAILS): per affiliate, the sum and number of commissions past their hold period and not paid (refund and dispute adjustments included), in cents. Payouts are manual: Stripe Connect is not configured (`stripeConnect: not_configured`).',
  ],
  'GET /api/operator/affiliate/payable.csv': [
    'Export payable commissions (operator)',
    'Operators only: the payable commissions per affiliate as CSV: name, email, amount (dollars), currency, count.',
  ],
  'GET /api/operator/affiliate/payouts': [
    'List payouts (operator)',
    'Operators only: the newest 500 payouts with their references.',
  ],
  'POST /api/operator/domains/{hostname}/confirm': [
    "Confirm a domain's DNS record",
    "An operator who checked the TXT record _switchboard.{hostname} marks the agency's domain verified. With more than one account claiming the hostname, the body's token (the record's value) says which.",
  ],
  'POST /api/operator/affiliate/payouts': [
    'Mark commissions paid (operator)',
    "Operators only: marks the payable commissions of the given affiliates (all when none is given) paid by one payout each with the operator's reference of the transfer made outside the product. Two requests at once pay each commission once; an affiliate with nothing payable gets no payout.",
  ],
  'POST /api/operator/sandbox/refunds': [
    'Refund a sandbox invoice (operator, sandbox)',
    'Operators only, on the sandbox payment provider: refunds `amount` cents of the paid sandbox invoice `invoiceId` (the rest when absent) and handles the resulting charge.refunded event: its credits and its commission are taken back in proportion.',
  ],
  'POST /api/operator/sandbox/disputes': [
    'Dispute a sandbox invoice (operator, sandbox)',
    'Operators only, on the sandbox: opens a dispute of what is left of the paid sandbox invoice `invoiceId` and handles charge.dispute.created: its credits and its commission are taken back at once.',
  ],
  'POST /api/operator/sandbox/disputes/close': [
    'Close a sandbox dispute (operator, sandbox)',
    'Operators only, on the sandbox: closes the open dispute `disputeId` as won (credits and commission restored) or lost (kept taken back), through charge.dispute.closed.',
  ],
  'POST /api/mentor/reviews': [
    'Review an agent',
    "The AI Mentor reads an agent (instructions, first message, suggested questions, knowledge document titles, recent conversations, the last evaluation's failed questions) with the chosen model, or the account's first provider model, or the offline model's fixed rules (offline: true), and stores its suggestions. Suggestions whose before text does not match the agent are left out (dropped). Charged like any model call; provider failures answer as errors.",
  ],
  'GET /api/mentor/reviews': [
    'List mentor reviews',
    "The sub-account's mentor reviews, newest first; agentId narrows them to one agent.",
  ],
  'GET /api/mentor/reviews/{reviewId}': ['Get a mentor review', 'One review with its suggestions and their state.'],
  'POST /api/mentor/reviews/{reviewId}/suggestions/{suggestionId}/apply': [
    'Apply a mentor suggestion',
    'Applies one suggestion to the agent through the agent update (same validation). Answers 409 when the field changed since the review; applying an applied suggestion again answers the same result.',
  ],
  'POST /api/mentor/reviews/{reviewId}/suggestions/{suggestionId}/dismiss': [
    'Dismiss a mentor suggestion',
    'Marks a suggestion dismissed; an applied suggestion cannot be dismissed (409).',
  ],
  'GET /api/webhook-events': [
    'List webhook events',
    'Every event an outbound webhook can subscribe to, with its meaning and an example of its data. Each request body is { type, timestamp, data }.',
  ],
  'GET /api/connect/{connectId}/webhooks': [
    'List webhook endpoints',
    "The sub-account's outbound webhook endpoints with their events, state and latest delivery. Admins only.",
  ],
  'POST /api/connect/{connectId}/webhooks': [
    'Add a webhook endpoint',
    'Adds an endpoint that receives the chosen events, signed by the Standard Webhooks scheme (webhook-id, webhook-timestamp, webhook-signature headers) with a secret of its own. The address must be public: addresses inside the network are refused (422, field url). At most 20 endpoints per sub-account.',
  ],
  'PATCH /api/connect/{connectId}/webhooks/{endpointId}': [
    'Change a webhook endpoint',
    'Changes the address, description or events, or turns the endpoint on or off. Turning it on clears the reason the server turned it off.',
  ],
  'DELETE /api/connect/{connectId}/webhooks/{endpointId}': [
    'Remove a webhook endpoint',
    'Removes the endpoint and its delivery log; deliveries on their way are dropped.',
  ],
  'GET /api/connect/{connectId}/webhooks/{endpointId}/secret': [
    "Show an endpoint's signing secret",
    'The whsec_ secret the receiver verifies signatures with (any Standard Webhooks library, or HMAC-SHA256 of "{webhook-id}.{webhook-timestamp}.{body}" with the base64 key after whsec_).',
  ],
  'POST /api/connect/{connectId}/webhooks/{endpointId}/test': [
    'Send a test event',
    'Queues a webhook.test event to the endpoint, whatever events it chose, and answers its delivery (202).',
  ],
  'GET /api/connect/{connectId}/webhooks/{endpointId}/deliveries': [
    'List deliveries',
    "The endpoint's latest 50 deliveries, newest first: the body sent, attempts, the receiver's status and answer, the error and the next attempt. A failed attempt is retried with exponential backoff for about an hour; a 410 Gone turns the endpoint off. Deliveries are kept 30 days.",
  ],
  'POST /api/connect/{connectId}/webhooks/{endpointId}/deliveries/{deliveryId}/resend': [
    'Resend a delivery',
    'Sends the same event again with the same webhook-id, so receivers can tell it is a repeat. Answers 409 while that event is still on its way to the endpoint.',
  ],
  'GET /api/launch': [
    'Launch overview',
    "A page of the caller's sub-accounts with every channel connection's record: state (pending_connection, live, paused, error with its catalogue code and actions), what it needs next, and its setup page.",
  ],
  'POST /api/launch/connections/{connectionId}/pause': [
    'Pause a channel',
    'Pauses a channel connection: every public way into it (widget, website block, SMS, WhatsApp, Instagram messages) answers CONNECTION_INACTIVE until it is resumed.',
  ],
  'POST /api/launch/connections/{connectionId}/resume': [
    'Resume a channel',
    'Activates a paused channel connection again; answers its record.',
  ],
  'GET /api/connect/{connectId}/dashboard': [
    'Sub-account dashboard',
    "Conversations and messages per channel today, this week and this month (UTC), today's widget messages against each daily limit, credits used, open human take-overs, each agent's last evaluation pass rate and messages per day for 30 days, aggregated by the database.",
  ],
  'POST /api/channels/{connectionId}/media': [
    'Upload a file to send',
    "Stores an image (JPEG, PNG, GIF, WebP) or a PDF of at most 5 MB (multipart, field file) to attach to a campaign or an inbox reply, and answers the public address it is served from ({PUBLIC_URL}/api/media/med_…, an unguessable id that Twilio fetches). The type is read from the file's bytes; anything else is MEDIA_UPLOAD_FAILED (422).",
  ],
  'GET /api/mcp-servers': [
    'List MCP servers',
    "The current sub-account's MCP servers (Streamable HTTP) with their state (connected, failed, auth_required), last error, the tools found at the last discovery and their headers masked to the last four characters.",
  ],
  'POST /api/mcp-servers': [
    'Add an MCP server',
    'Adds an MCP server with the headers sent on every request (authentication, stored encrypted), connects to it at once and lists its tools. The address must be public unless PRIVATE_URL_ALLOWLIST lists it (400, field url). A server that answers 401 is stored with the state auth_required; one that cannot be reached with failed and the reason.',
  ],
  'PATCH /api/mcp-servers/{serverId}': [
    'Change an MCP server',
    'Changes the name, address or headers (the full list; a header sent without a value keeps its stored value). A new address or new headers connect again and list the tools.',
  ],
  'DELETE /api/mcp-servers/{serverId}': [
    'Remove an MCP server',
    'Removes the server. Agents that enabled its tools keep them listed; a call to one answers TOOL_EXECUTION_FAILED.',
  ],
  'POST /api/mcp-servers/{serverId}/rediscover': [
    'Discover tools again',
    'Connects to the server again and lists its tools; when it fails, the state says why and the last good list is kept.',
  ],
  'POST /mcp': [
    'Agents as MCP tools',
    "Switchboard's own MCP server (Streamable HTTP, stateless, JSON answers), authenticated by a platform API key (Authorization: Bearer sk_sb_…). tools/list lists one tool per agent of the key's sub-account (its name made safe, input { message, threadId? }); tools/call asks the agent through the same reply path as every channel (stored on the api channel, credits charged) and answers { answer, threadId }. No key or a bad key: 401.",
  ],
  'GET /mcp': ['MCP stream (not offered)', 'The MCP server is stateless: GET answers 405, send requests with POST.'],
  'DELETE /mcp': [
    'MCP session end (not offered)',
    'The MCP server is stateless and keeps no sessions: DELETE answers 405.',
  ],
};

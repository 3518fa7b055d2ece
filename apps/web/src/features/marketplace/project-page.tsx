import { MARKETPLACE_TYPE_LABELS, type TProject, ZRespondToProjectRequest } from '@switchboard/core';
import { type FormEvent, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { Button } from '../../components/ui/button';
import { Card, Spinner } from '../../components/ui/card';
import { ConfirmDeleteDialog } from '../../components/ui/confirm-delete-dialog';
import { FieldError, Label, Textarea } from '../../components/ui/input';
import { toast } from '../../lib/toast';
import { useSession } from '../session/session';
import { usePageHeader } from '../workspace/page-header';
import { useProject, useProjectMutations } from './api';
import { EditProjectDialog } from './edit-project-dialog';

const memberSince = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', year: 'numeric' });

/** /marketplace/{projectId}: the project, its author's profile, and answering or managing it. */
export const ProjectPage = () => {
  const { projectId } = useParams();
  const { user } = useSession();
  usePageHeader({ back: '/marketplace', title: 'AI Marketplace' });
  const project = useProject(user ? projectId : undefined);
  if (!user) {
    return (
      <Card className="mx-auto max-w-xl text-center text-sm">
        Sign in to see this project.{' '}
        <Link className="underline" to="/marketplace">
          Back to the marketplace
        </Link>
      </Card>
    );
  }
  if (project.isLoading) return <Spinner label="Loading project" />;
  if (!project.data) {
    return (
      <Card className="mx-auto max-w-xl text-center">
        <h2 className="text-lg font-semibold">Project not found</h2>
        <p className="mt-2 text-sm text-muted">It was closed or deleted by its author.</p>
        <Link className="mt-3 inline-block text-sm underline" to="/marketplace">
          Back to the marketplace
        </Link>
      </Card>
    );
  }
  return <ProjectView project={project.data} />;
};

const ProjectView = ({ project }: { project: TProject }) => {
  const mutations = useProjectMutations();
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  return (
    <div className="mx-auto grid w-full max-w-5xl gap-6 lg:grid-cols-[1fr_300px]">
      <article className="space-y-4">
        <div className="flex items-start gap-4">
          <img src={project.image} alt="" className="h-16 w-16 shrink-0 rounded-xl" />
          <div className="min-w-0">
            <h2 className="text-xl font-semibold break-words">{project.title}</h2>
            <p className="text-sm text-muted">{project.companyName}</p>
          </div>
        </div>
        <div className="flex flex-wrap gap-2 text-xs">
          {[MARKETPLACE_TYPE_LABELS[project.marketplaceType], project.category, project.timeframe, project.price].map(
            (label) => (
              <span key={label} className="rounded-full bg-surface-2 px-2 py-1">
                {label}
              </span>
            ),
          )}
          {project.status === 'closed' ? <span className="rounded-full bg-surface-2 px-2 py-1">Closed</span> : null}
        </div>
        <p className="text-sm leading-relaxed break-words whitespace-pre-wrap">{project.description}</p>
        {project.isMine ? (
          <Card className="space-y-3">
            <h3 className="font-semibold">Your project</h3>
            <p className="text-sm text-muted">
              {project.responseCount === 1 ? '1 response' : `${project.responseCount} responses`} so far; each one was
              emailed to you.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button variant="secondary" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button
                variant="secondary"
                disabled={mutations.update.isPending}
                onClick={() =>
                  mutations.update.mutate(
                    { id: project.id, body: { status: project.status === 'open' ? 'closed' : 'open' } },
                    {
                      onSuccess: (next) =>
                        toast.success(next.status === 'open' ? 'Project reopened' : 'Project closed'),
                    },
                  )
                }
              >
                {project.status === 'open' ? 'Close project' : 'Reopen project'}
              </Button>
              <Button variant="secondary" className="text-danger" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            </div>
          </Card>
        ) : project.status === 'open' ? (
          <RespondForm projectId={project.id} />
        ) : null}
      </article>
      <aside aria-label="Author" className="space-y-3">
        <Card className="space-y-3">
          <div className="flex items-center gap-3">
            {project.author.image ? <img src={project.author.image} alt="" className="h-14 w-14 rounded-full" /> : null}
            <div className="min-w-0">
              <p className="font-semibold break-words">{project.author.name}</p>
              <p className="text-sm break-words text-muted">{project.author.businessName}</p>
            </div>
          </div>
          <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
            <dt className="text-muted">Member since</dt>
            <dd>{memberSince(project.author.memberSince)}</dd>
            <dt className="text-muted">Open projects</dt>
            <dd>{project.author.projectCount}</dd>
          </dl>
        </Card>
      </aside>
      {editing ? <EditProjectDialog project={project} onClose={() => setEditing(false)} /> : null}
      <ConfirmDeleteDialog
        title="Delete project"
        description="The project and its responses are deleted for good."
        open={deleting}
        onOpenChange={setDeleting}
        busy={mutations.remove.isPending}
        onConfirm={() =>
          mutations.remove.mutate(project.id, {
            onSuccess: () => {
              toast.success('Project deleted');
              navigate('/marketplace');
            },
          })
        }
      />
    </div>
  );
};

const RespondForm = ({ projectId }: { projectId: string }) => {
  const { respond } = useProjectMutations();
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ZRespondToProjectRequest.safeParse({ message });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Write a message');
      return;
    }
    setError(null);
    respond.mutate(
      { id: projectId, message: parsed.data.message },
      {
        onSuccess: () => {
          setSent(true);
          setMessage('');
        },
      },
    );
  };
  if (sent) {
    return (
      <Card role="status" className="text-sm">
        Your message was sent to the author by email. They answer you at your account's address.
      </Card>
    );
  }
  return (
    <Card>
      <form onSubmit={submit} noValidate className="space-y-3">
        <h3 className="font-semibold">Respond to this project</h3>
        <div>
          <Label htmlFor="respond-message">Your message</Label>
          <Textarea
            id="respond-message"
            rows={5}
            maxLength={2000}
            value={message}
            aria-invalid={error ? true : undefined}
            aria-describedby="respond-help"
            onChange={(event) => setMessage(event.target.value)}
          />
          <FieldError>{error}</FieldError>
          <p id="respond-help" className="mt-1 text-xs text-muted">
            We email your message and your address to the author. The author's address stays private.
          </p>
        </div>
        <Button type="submit" disabled={respond.isPending}>
          {respond.isPending ? 'Sending...' : 'Send message'}
        </Button>
      </form>
    </Card>
  );
};

import { MARKETPLACE_TYPE_LABELS, type TProject } from '@switchboard/core';
import { Link } from 'react-router';
import { Card } from '../../components/ui/card';

/** One project in the browse list. Text is rendered by React, so it is always escaped. */
export const ProjectCard = ({ project }: { project: TProject }) => (
  <Card className="flex h-full flex-col gap-3 p-4">
    <div className="flex items-start gap-3">
      <img src={project.image} alt="" className="h-12 w-12 shrink-0 rounded-lg" />
      <div className="min-w-0">
        <h3 className="font-semibold break-words">
          <Link to={`/marketplace/${project.id}`} className="hover:underline">
            {project.title}
          </Link>
        </h3>
        <p className="truncate text-xs text-muted">{project.companyName}</p>
      </div>
    </div>
    <p className="line-clamp-3 text-sm break-words text-muted">{project.description}</p>
    <div className="mt-auto flex flex-wrap gap-2 text-xs">
      <span className="rounded-full bg-surface-2 px-2 py-0.5">{MARKETPLACE_TYPE_LABELS[project.marketplaceType]}</span>
      <span className="rounded-full bg-surface-2 px-2 py-0.5">{project.category}</span>
      <span className="rounded-full bg-surface-2 px-2 py-0.5">{project.timeframe}</span>
      {project.status === 'closed' ? <span className="rounded-full bg-surface-2 px-2 py-0.5">Closed</span> : null}
    </div>
    <p className="font-semibold">{project.price}</p>
  </Card>
);

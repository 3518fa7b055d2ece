import { canToggleThemeOn } from '@switchboard/core';
import { Award, ChevronUp, Headset, LayoutDashboard, LogOut, Moon, Settings, Sun } from 'lucide-react';
import { DropdownMenu } from 'radix-ui';
import { useLocation, useNavigate } from 'react-router';
import { cn } from '../../lib/cn';
import { useRank } from '../rank/use-rank';
import { useSession } from '../session/session';
import { useTheme } from '../theme/theme';
import { formatCredits, useCredits } from './credits';

const itemClass =
  'flex cursor-pointer items-center gap-2 rounded-md px-3 py-2 text-sm outline-none data-[highlighted]:bg-surface-2';

export const Avatar = ({ name, image, size = 32 }: { name: string; image?: string | null; size?: number }) =>
  image ? (
    <img src={image} alt="" width={size} height={size} className="rounded-full object-cover" />
  ) : (
    <span
      aria-hidden="true"
      style={{ width: size, height: size }}
      className="inline-flex shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground"
    >
      {(name || '?').charAt(0).toUpperCase()}
    </span>
  );

/** The sidebar's account area: the My Account card with credits and its menu. */
export const AccountMenu = ({ expanded }: { expanded: boolean }) => {
  const { user, isOperator, signOut } = useSession();
  const credits = useCredits();
  const rank = useRank();
  const theme = useTheme();
  const navigate = useNavigate();
  const location = useLocation();
  if (!user) return null;
  const showToggle = canToggleThemeOn(location.pathname) && theme.canToggleTheme;

  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        className="flex w-full items-center gap-3 rounded-lg border border-border bg-surface-2 p-2 text-left"
        aria-label="My Account"
      >
        <Avatar name={user.name || user.email} image={user.image} />
        <span className={cn('min-w-0 flex-1', expanded ? 'block' : 'hidden')}>
          <span className="block text-xs font-semibold">My Account</span>
          <span className="block truncate text-xs text-muted">
            {credits.data ? `${formatCredits(credits.data.remaining)} credits` : user.email}
          </span>
          {credits.data ? (
            <span className="mt-1 block h-1.5 w-full overflow-hidden rounded-full bg-border" aria-hidden="true">
              <span
                className="block h-full rounded-full bg-primary"
                style={{ width: `${100 - credits.data.usedPercent}%` }}
              />
            </span>
          ) : null}
          {rank.data ? (
            <span className="mt-1 block truncate text-xs text-muted">
              Level {rank.data.level} · {rank.data.levelName}
            </span>
          ) : null}
        </span>
        <ChevronUp size={16} className={cn('text-muted', expanded ? 'block' : 'hidden')} aria-hidden="true" />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          side="top"
          align="start"
          sideOffset={8}
          className="z-50 min-w-56 rounded-lg border border-border bg-surface p-1 text-foreground shadow-xl"
        >
          <DropdownMenu.Item className={itemClass} onSelect={() => navigate('/build')}>
            <LayoutDashboard size={16} aria-hidden="true" /> Dashboard
          </DropdownMenu.Item>
          <DropdownMenu.Item className={itemClass} onSelect={() => navigate('/profile')}>
            <Award size={16} aria-hidden="true" />
            {rank.data ? `Profile · Level ${rank.data.level}` : 'Profile'}
          </DropdownMenu.Item>
          <DropdownMenu.Item className={itemClass} onSelect={() => navigate('/settings')}>
            <Settings size={16} aria-hidden="true" /> Settings
          </DropdownMenu.Item>
          {isOperator ? (
            <DropdownMenu.Item className={itemClass} onSelect={() => navigate('/operator')}>
              <Headset size={16} aria-hidden="true" /> Operator
            </DropdownMenu.Item>
          ) : null}
          {showToggle ? (
            <DropdownMenu.Item
              className={itemClass}
              onSelect={(event) => {
                event.preventDefault();
                theme.toggleTheme();
              }}
            >
              {theme.isDarkMode ? <Sun size={16} aria-hidden="true" /> : <Moon size={16} aria-hidden="true" />}
              {theme.isDarkMode ? 'Light mode' : 'Dark mode'}
            </DropdownMenu.Item>
          ) : null}
          <DropdownMenu.Separator className="my-1 h-px bg-border" />
          <DropdownMenu.Item className={itemClass} onSelect={() => void signOut()}>
            <LogOut size={16} aria-hidden="true" /> Logout
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
};

/** A logo placed in its box: centred at x/y percent, scaled; the widget uses the same placement. */
export const LogoImage = ({
  url,
  position,
  scale,
  alt = '',
}: {
  url: string;
  position: { x: number; y: number };
  scale: number;
  alt?: string;
}) => (
  <img
    src={url}
    alt={alt}
    draggable={false}
    className="pointer-events-none absolute h-full w-full max-w-none object-contain select-none"
    style={{
      left: `${position.x}%`,
      top: `${position.y}%`,
      transform: `translate(-50%, -50%) scale(${scale})`,
    }}
  />
);

import { useOwnImage } from './own-image';

/**
 * The customer's avatar: their uploaded image (fetched with their token), or a preview of
 * one just picked, else the first letter of their nickname.
 */
export function UserAvatar(props: { avator: string | null | undefined; nick: string | null | undefined; preview?: string | null; label?: string }) {
  const stored = useOwnImage(props.avator);
  const src = props.preview ?? stored;
  return (
    <span className="user-avatar" role={props.label ? 'img' : undefined} aria-label={props.label} aria-hidden={props.label ? undefined : true} data-testid="user-avatar">
      {src ? <img src={src} alt="" /> : (props.nick || '?').slice(0, 1).toUpperCase()}
    </span>
  );
}

/** The brand's logo (config.json `logo`) beside its name, so decorative; nothing when the brand has none. */
export function BrandLogo(props: { src: string }) {
  return props.src ? <img className="brand-logo" src={props.src} alt="" width={24} height={24} /> : null;
}

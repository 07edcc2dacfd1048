import { type OrderType, ORDER_TYPES } from '@vers/domain';
import { createSvgIcon } from '@mui/material/utils';

// What the order screens share, apart from the list's page: the editor and the add-order form load these without
// the list's code.

/** A freight wagon seen from the side: box body with a sliding door, frame and two bogies. */
export const WagonIcon = createSvgIcon(
  <>
    <path fillRule="evenodd" d="M2 4h20v11H2zM8.5 5.5h7v8h-7zM9.5 6.5h5v6h-5z" />
    <path d="M1 15.75h22v1.5H1z" />
    <circle cx="5" cy="19.5" r="1.8" />
    <circle cx="9" cy="19.5" r="1.8" />
    <circle cx="15" cy="19.5" r="1.8" />
    <circle cx="19" cy="19.5" r="1.8" />
  </>,
  'FreightWagon',
);

/** A wheelset seen from the front: two wheels with their flanges inside, on one axle. */
export const WheelsetIcon = createSvgIcon(
  <path d="M1.5 11h21v2h-21zM3.5 4.5h3v15h-3zM6.5 3h1.25v18H6.5zM17.5 4.5h3v15h-3zM16.25 3h1.25v18h-1.25z" />,
  'Wheelset',
);

export function OrderTypeIcon({ type, fontSize }: { type: OrderType; fontSize?: 'small' | 'medium' | 'large' }) {
  return type === ORDER_TYPES.WAGON ? <WagonIcon fontSize={fontSize} /> : <WheelsetIcon fontSize={fontSize} />;
}

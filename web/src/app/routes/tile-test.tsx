/** /test/question-set-item (docs/product-rules.md, Topic tiles): a lazy route module showing the tiles of three sample users. */
import '../../styles/app.css';

export { default as Component } from '../../features/topics/tile-test-page';

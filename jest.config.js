module.exports = {
  testEnvironment:        'jsdom',
  testEnvironmentOptions: { customExportConditions: ['node', 'node-addons'] },
  roots:                  ['<rootDir>/pkg', '<rootDir>/tests/unit'],
  testMatch:              ['**/__tests__/**/*.test.ts', '<rootDir>/tests/unit/**/*.test.ts'],
  setupFiles:             ['<rootDir>/tests/unit/shell-directives.js'],
  moduleFileExtensions:   ['ts', 'js', 'json', 'vue'],
  moduleNameMapper:       {
    '^@shell/(.*)$':           '<rootDir>/node_modules/@rancher/shell/$1',
    '^@components/(.*)$':      '<rootDir>/node_modules/@rancher/shell/rancher-components/$1',
    '^@pkg/os-upgrades/(.*)$': '<rootDir>/pkg/os-upgrades/$1',
    '\\.(css|scss)$':          '<rootDir>/tests/unit/style-stub.js',
    '\\.(svg|png|jpg)$':       '<rootDir>/tests/unit/file-stub.js'
  },
  transform: {
    '^.+\\.(t|j)s$': 'babel-jest',
    '^.+\\.vue$':    '<rootDir>/tests/unit/vue-transform.js'
  },
  transformIgnorePatterns:  ['/node_modules/(?!(@rancher/shell|color|color-string|color-convert|color-name|diff2html|marked|dompurify|idb-keyval|modern-tar)/)'],
  modulePathIgnorePatterns: ['<rootDir>/dist', '<rootDir>/dist-pkg', '<rootDir>/.tools'],
  globals:                  { 'vue-jest': { experimentalCSSCompile: false } }
};
